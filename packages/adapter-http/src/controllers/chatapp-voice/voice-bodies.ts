import {
  E164_PATTERN,
  CHATAPP_CALL_MAX_VARIABLE_LENGTH,
  CHATAPP_CALL_MAX_VARIABLES,
  FieldErrors,
  normalizeChatappCallVariables,
  Result,
  VariableProblem,
} from '@voiceplane/domain';
import { Bool, Id, Obj, Str } from '../../validation';
import { FieldMessages, fieldErrors } from '../../pipeline/field-messages';

/** Phones are checked for presence here and for E.164 at their place in the check order (`INVALID_PHONE`). */
export class PermissionRequestBody {
  @Id({ required: true, example: 12 }) sender_id!: number;
  @Str({ required: true, description: 'E.164', example: '+14155551234' }) recipient_phone!: string;
  @Str({ max: 255, example: 'Ann' }) recipient_name?: string;
  @Id({
    description: 'An approved voice_call_request template of the sender; default: its most recently approved one',
    example: 34,
  })
  template_id?: number;
}

export class PermissionQuery {
  @Id({ required: true, example: 12 }) sender_id!: number;
  @Str({ required: true, description: 'E.164', example: '+14155551234' }) recipient_phone!: string;
}

const CHATAPP_CALL_VARIABLE_MESSAGES: FieldMessages<VariableProblem> = {
  too_many: (field) => `The ${field} may not have more than ${CHATAPP_CALL_MAX_VARIABLES} items.`,
  bad_name: (field) => `The ${field} format is invalid.`,
  not_text: (field) => `The ${field} must be a string.`,
  too_long: (field) => `The ${field} may not be greater than ${CHATAPP_CALL_MAX_VARIABLE_LENGTH} characters.`,
};

function chatappCallVariables(input: Readonly<Record<string, unknown>>): Result<Record<string, string>, FieldErrors> {
  const normalized = normalizeChatappCallVariables(input);
  return normalized.ok
    ? normalized
    : { ok: false, error: fieldErrors(normalized.error, CHATAPP_CALL_VARIABLE_MESSAGES) };
}

export class ChatappCallBody {
  @Id({ required: true, example: 12 }) sender_id!: number;
  @Str({ required: true, description: 'E.164', example: '+14155551234' }) recipient_phone!: string;
  @Obj({
    entries: chatappCallVariables,
    description: "≤ 20 keys, values strings ≤ 500; merged over the assistant's variables",
  })
  variables?: Record<string, string>;
}

export class PermissionReplyBody {
  @Id({ required: true, example: 12 }) sender_id!: number;
  @Str({ required: true, pattern: E164_PATTERN, description: 'E.164', example: '+14155551234' })
  customer_phone!: string;
  @Str({ required: true, enum: ['accept', 'reject', 'revoke'] }) response!: 'accept' | 'reject' | 'revoke';
  @Bool({ description: 'A grant without expiry (accept only); default false' }) is_permanent?: boolean;
}
