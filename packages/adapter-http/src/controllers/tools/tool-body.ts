import {
  AUTOMATION_OWNED_FIELDS,
  FieldErrors,
  HTTP_FIELD_VALUE_PATTERN,
  HTTP_TOKEN_PATTERN,
  TargetUrlPolicy,
  Tool,
  TOOL_BODY_FORMATS,
  TOOL_LIMITS,
  TOOL_METHODS,
  TOOL_NAME_PATTERN,
  TOOL_PARAMETER_TYPES,
  ToolBodyFormat,
  ToolFields,
  ToolMethod,
  ToolParameterType,
} from '@voiceplane/domain';
import { checkToolEndpoint, checkToolItems, TOOL_MESSAGES } from './tool-messages';
import { Arr, Bool, Id, Int, isPlainObject, Obj, PageQuery, Str, validateDto, ListFilters } from '../../validation';
import { refuse, validationAnswer } from '../../pipeline/answers';

/** The tool body: shapes here, rules that need the domain after. */

export class ToolHeaderBody {
  @Str({
    required: true,
    max: TOOL_LIMITS.headerName,
    pattern: HTTP_TOKEN_PATTERN,
    description: 'HTTP token characters',
  })
  name!: string;
  @Str({
    required: true,
    max: TOOL_LIMITS.headerValue,
    pattern: HTTP_FIELD_VALUE_PATTERN,
    description: '{{variable}} placeholders allowed; no control characters',
  })
  value!: string;
}

export class ToolStaticFieldBody {
  @Str({ required: true, max: TOOL_LIMITS.staticKey, description: 'Unique in the tool' }) key!: string;
  @Str({ max: TOOL_LIMITS.staticValue, description: 'Absent = ""; {{variable}} placeholders allowed' }) value?: string;
}

export class ToolParameterBody {
  @Str({
    required: true,
    max: TOOL_LIMITS.parameterName,
    pattern: TOOL_NAME_PATTERN,
    description: 'Unique in the tool',
  })
  name!: string;
  @Str({ required: true, enum: TOOL_PARAMETER_TYPES, description: 'number = integer, float = any number' })
  type!: ToolParameterType;
  @Str({ required: true, min: TOOL_LIMITS.parameterDescriptionMin, max: TOOL_LIMITS.parameterDescriptionMax })
  description!: string;
  @Bool({ description: 'Default false' }) required?: boolean;
}

const NAME = { max: TOOL_LIMITS.name, pattern: TOOL_NAME_PATTERN, messages: { pattern: TOOL_MESSAGES.name } } as const;
const DESCRIPTION = { max: TOOL_LIMITS.description } as const;
const ENDPOINT = {
  max: TOOL_LIMITS.endpoint,
  target: checkToolEndpoint,
  description: 'Absolute public http(s) URL; {param} and {{variable}} placeholders in path, query and fragment',
  example: 'https://api.example.com/orders/{order_id}',
} as const;
const METHOD = { enum: TOOL_METHODS, upper: true, description: 'Case-insensitive' } as const;

/** Fields optional on create and update alike. */
class ToolSettingsBody {
  @Str({ enum: ['http'], messages: { in: TOOL_MESSAGES.type }, description: 'Only http through the API' })
  type?: string;
  @Str({ enum: TOOL_BODY_FORMATS, description: 'Default json; POST/PUT/PATCH only' }) body_format?: ToolBodyFormat;
  @Int({ min: TOOL_LIMITS.timeoutMin, max: TOOL_LIMITS.timeoutMax, description: 'Seconds, default 10' })
  timeout?: number;
  @Arr(ToolHeaderBody, { max: TOOL_LIMITS.headers }) headers?: ToolHeaderBody[];
  @Arr(ToolStaticFieldBody, { max: TOOL_LIMITS.staticFields }) static_fields?: ToolStaticFieldBody[];
  @Arr(ToolParameterBody, { max: TOOL_LIMITS.schema }) schema?: ToolParameterBody[];
}

/** The update body: any subset. */
export class ToolFieldsBody extends ToolSettingsBody {
  @Str(NAME) name?: string;
  @Str(DESCRIPTION) description?: string;
  @Str(ENDPOINT) endpoint?: string;
  @Str(METHOD) method?: ToolMethod;
}

export class CreateToolBody extends ToolSettingsBody {
  @Str({ required: true, ...NAME }) name!: string;
  @Str({ required: true, ...DESCRIPTION }) description!: string;
  @Str({ required: true, ...ENDPOINT }) endpoint!: string;
  @Str({ required: true, ...METHOD }) method!: ToolMethod;
}

@ListFilters()
export class ToolListQuery extends PageQuery {
  @Str({ enum: ['http', 'automation'] }) type?: Tool['type'];
}

/** Body of render and test. */
export class ToolPreviewBody {
  @Obj({ description: 'AI-extracted arguments, default {}' }) params?: Record<string, unknown>;
  @Obj({ description: 'Variables; override every other source, default {}' }) variables?: Record<string, unknown>;
  @Id({ description: 'An own call supplying system and call variables' }) call_id?: number;
}

/** Body of the voice runtime's gateway entry. */
export class RuntimeToolCallBody {
  @Id({ required: true }) call_id!: number;
  @Id({ required: true }) tool_id!: number;
  @Obj({ description: 'AI-extracted arguments, default {}' }) params?: Record<string, unknown>;
  @Str({ max: 128, description: 'Repeating it for the same call replays the first result' }) invocation_id?: string;
}

/**
 * Validates a create or update body and returns the stored fields it sets. Every field is checked
 * on its own, so a bad `timeout` does not hide a placeholder in the host: the client sees all
 * problems at once.
 */
export function parseToolBody(
  input: unknown,
  operation: 'create' | 'update',
  policy: TargetUrlPolicy,
  existing?: Tool,
): Partial<ToolFields> {
  if (!isPlainObject(input)) refuse(validationAnswer({ body: ['The request body must be a JSON object.'] }));
  let body: Record<string, unknown> = input;
  if (existing?.type === 'automation') {
    // The automation decides these; its type is not the caller's to change either.
    body = Object.fromEntries(
      Object.entries(input).filter(
        ([key]) => !(AUTOMATION_OWNED_FIELDS as readonly string[]).includes(key) && key !== 'type',
      ),
    );
  }
  const options = { partial: operation === 'update', targetPolicy: policy };
  const strict = validateDto(operation === 'create' ? CreateToolBody : ToolFieldsBody, body, options);
  const errors: FieldErrors = strict.ok ? {} : { ...strict.errors };
  let values: ToolFieldsBody = {};
  if (strict.ok) values = strict.value;
  else {
    const failed = new Set(Object.keys(errors).map((key) => key.split('.')[0]));
    const rest = validateDto(
      ToolFieldsBody,
      Object.fromEntries(Object.entries(body).filter(([key]) => !failed.has(key))),
      options,
    );
    if (rest.ok) values = rest.value;
  }

  const fields = toFields(values);
  Object.assign(errors, checkToolItems(fields));
  if (Object.keys(errors).length > 0) refuse(validationAnswer(errors));
  return fields;
}

function toFields(values: ToolFieldsBody): Partial<ToolFields> {
  const fields: { -readonly [K in keyof ToolFields]?: ToolFields[K] } = {};
  if (values.name !== undefined) fields.name = values.name;
  if (values.description !== undefined) fields.description = values.description;
  if (values.endpoint !== undefined) fields.endpoint = values.endpoint;
  if (values.method !== undefined) fields.method = values.method;
  if (values.body_format !== undefined) fields.bodyFormat = values.body_format;
  if (values.timeout !== undefined) fields.timeout = values.timeout;
  if (values.headers !== undefined) fields.headers = values.headers.map((h) => ({ name: h.name, value: h.value }));
  if (values.static_fields !== undefined)
    fields.staticFields = values.static_fields.map((f) => ({ key: f.key, value: f.value ?? '' }));
  if (values.schema !== undefined) {
    fields.schema = values.schema.map((p) => ({
      name: p.name,
      type: p.type,
      description: p.description,
      required: p.required ?? false,
    }));
  }
  return fields;
}

/** Create defaults under the fields that were sent (the required ones were checked). */
export function withToolDefaults(fields: Partial<ToolFields>): ToolFields {
  return {
    bodyFormat: 'json',
    timeout: TOOL_LIMITS.defaultTimeout,
    headers: [],
    staticFields: [],
    schema: [],
    ...fields,
  } as ToolFields;
}
