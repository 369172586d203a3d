import {
  CONNECTION_AUTH_TYPES,
  CONNECTION_KINDS,
  ConnectionAuthType,
  DATA_TABLE_LIMITS,
  HTTP_TOKEN_PATTERN,
  JsonObject,
  JsonValue,
  TEMPLATE_KEYS,
  utf8Length,
} from '@voiceplane/domain';
import {
  Arr,
  Bool,
  Int,
  isPlainObject,
  Obj,
  PageQuery,
  publicTarget,
  Str,
  validateDto,
  ListFilters,
} from '../../validation';
import { refuse } from '../../pipeline/answers';
import { invalidShape } from './automation-answers';

/** Request shapes of the automation, data table and connection routes. */

export class TableColumnBody {
  @Str({ required: true, max: 64, description: '^[A-Za-z_][A-Za-z0-9_]{0,63}$, unique in the table' }) name!: string;
  @Str({ required: true, enum: ['string', 'number', 'boolean'] }) type!: string;
}

export class CreateTableBody {
  @Str({ required: true, max: DATA_TABLE_LIMITS.name, description: 'Unique per account' }) name!: string;
  @Arr(TableColumnBody, {
    required: true,
    min: DATA_TABLE_LIMITS.columnsMin,
    max: DATA_TABLE_LIMITS.columnsMax,
    description: 'Fixed at creation',
  })
  columns!: TableColumnBody[];
}

export class TableRowBody {
  @Obj({ required: true, description: 'Column → value (string, number, boolean or null); absent columns are null' })
  values!: Record<string, unknown>;
}

export class AddRowsBody {
  @Arr(TableRowBody, { required: true, min: 1, max: DATA_TABLE_LIMITS.rowsPerInsert }) rows!: TableRowBody[];
}

export class UpdateRowBody {
  @Obj({ required: true, description: 'Partial: only the columns sent change' }) values!: Record<string, unknown>;
}

const NOTES_PATH = {
  max: 255,
  pattern: /^\//,
  messages: { pattern: 'The notes path must start with /.' },
  description: 'Default /notes',
} as const;

export class ConnectionFieldsBody {
  @Str({ max: 255 }) name?: string;
  @Str({ enum: CONNECTION_KINDS }) kind?: string;
  @Str({ max: 2048, url: true, target: publicTarget, description: 'Public http(s) URL' }) base_url?: string;
  @Str(NOTES_PATH) notes_path?: string;
  @Str({ enum: CONNECTION_AUTH_TYPES }) auth_type?: ConnectionAuthType;
  @Str({ max: 2048, trim: false, description: 'Write-only; `user:password` for basic' }) auth_value?: string;
  @Str({ max: 128, pattern: HTTP_TOKEN_PATTERN, description: 'Required for auth_type header' })
  auth_header_name?: string;
}

export class CreateConnectionBody {
  @Str({ required: true, max: 255 }) name!: string;
  @Str({ required: true, enum: CONNECTION_KINDS }) kind!: string;
  @Str({ required: true, max: 2048, url: true, target: publicTarget, description: 'Public http(s) URL' })
  base_url!: string;
  @Str(NOTES_PATH) notes_path?: string;
  @Str({ required: true, enum: CONNECTION_AUTH_TYPES }) auth_type!: ConnectionAuthType;
  @Str({
    max: 2048,
    trim: false,
    description: 'Required unless auth_type is none; write-only; `user:password` for basic',
  })
  auth_value?: string;
  @Str({ max: 128, pattern: HTTP_TOKEN_PATTERN, description: 'Required for auth_type header' })
  auth_header_name?: string;
}

export class ApplyTemplateBody {
  @Obj({ description: 'Template params (≤ 64 KB serialised), default {}' }) params?: Record<string, unknown>;
  @Int({ min: 1, description: 'Required when the template requires an assistant' }) assistant_id?: number;
  @Str({ max: 255, description: 'Default: the template name' }) name?: string;
  @Bool({ description: 'Must be true for side-effect templates when a test runs' }) confirm_side_effects?: boolean;
  @Bool({ description: 'Default true; false skips the test' }) test?: boolean;
  @Obj({ description: "Deep-merged over the template's sample test input" }) sample?: Record<string, unknown>;
}

@ListFilters()
export class RunsQuery {
  @Int({
    min: 1,
    max: 20,
    messages: {
      between: 'The limit must be between 1 and 20.',
      min: 'The limit must be between 1 and 20.',
      max: 'The limit must be between 1 and 20.',
      type: 'The limit must be between 1 and 20.',
    },
    description: 'Default 10',
  })
  limit?: number;
  @Str({ max: 40, description: 'A run of this automation: its detail instead of the list' }) run_id?: string;
}

/** `params` are merged key by key (null removes one); unknown fields are ignored. */
export class UpdateAutomationBody {
  @Obj({
    description:
      'Merged key by key over the current params; a null value removes an optional param (≤ 64 KB serialised)',
  })
  params?: Record<string, unknown>;
  @Str({ max: 255, description: 'Stored on the automation (not versioned)' }) name?: string;
  @Bool({ description: 'Must be true for side-effect templates when a test runs' }) confirm_side_effects?: boolean;
  @Bool({ description: 'Default true; false publishes without a test' }) test?: boolean;
  @Obj({ description: "Deep-merged over the template's sample test input" }) sample?: Record<string, unknown>;
}

@ListFilters()
export class AutomationsQuery extends PageQuery {
  @Str({ enum: ['enabled', 'disabled'] }) status?: 'enabled' | 'disabled';
  @Str({ enum: TEMPLATE_KEYS }) template_key?: (typeof TEMPLATE_KEYS)[number];
  @Int({ min: 1 }) assistant_id?: number;
}

export class RetryBody {
  @Bool({ description: 'Must be true for side-effect templates' }) confirm_side_effects?: boolean;
}

/** `params` over 64 KB serialised is a shape error. */
export const MAX_PARAMS_BYTES = 64 * 1024;

/**
 * The body of an apply or an automation update (check 2): its shape, `params` as given and at
 * most 64 KB, and `sample` when it is an object.
 */
export function readTemplateBody<T extends object>(
  dto: new () => T,
  body: unknown,
): { value: T; params: { [key: string]: JsonValue }; sample: JsonObject | null } {
  const raw: Record<string, unknown> = body === undefined || body === null ? {} : (body as Record<string, unknown>);
  const shape = validateDto(dto, raw);
  if (!shape.ok) refuse(invalidShape(shape.errors));
  if (!isPlainObject(raw)) refuse(invalidShape({ body: ['The request body must be a JSON object.'] }));
  const params = (isPlainObject(raw.params) ? raw.params : {}) as { [key: string]: JsonValue };
  if (utf8Length(JSON.stringify(params)) > MAX_PARAMS_BYTES)
    refuse(invalidShape({ params: ['The params may not be greater than 64 kilobytes.'] }));
  return { value: shape.value, params, sample: isPlainObject(raw.sample) ? (raw.sample as JsonObject) : null };
}

export { PageQuery };
