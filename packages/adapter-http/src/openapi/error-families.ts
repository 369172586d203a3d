import type { Schema } from './dto-schemas';

const text = (description: string): Schema => ({ type: 'string', description });

/**
 * The error body families (each resource family keeps its own shape), as component schemas. Every error example
 * of the document belongs to exactly one of them.
 */
export const ERROR_FAMILY_SCHEMAS = {
  ValidationError: {
    type: 'object',
    description:
      'Invalid body or query (status 422): every failing field with all its messages; array items use dotted keys (`tools.0.type`).',
    properties: {
      message: { type: 'string', const: 'The given data was invalid.' },
      errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
    },
    required: ['message', 'errors'],
  },
  MessageError: {
    type: 'object',
    description:
      'Missing resources, plan limits and business refusals of assistants, tools, folders, labels, API keys, calls, deliveries, admin and runtime routes.',
    properties: { message: text('What went wrong, in words') },
    required: ['message'],
  },
  SipError: {
    type: 'object',
    description:
      'SIP trunks, phone numbers and knowledge bases: missing resources, duplicates, provisioning and purchase failures.',
    properties: { error: text('What went wrong, in words') },
    required: ['error'],
  },
  AuthError: {
    type: 'object',
    description: 'Authentication failure (status 401, with `WWW-Authenticate: Bearer`).',
    properties: { error: text('`Unauthorized`, `Invalid credentials.` or `This endpoint requires an API key.`') },
    required: ['error'],
  },
  RateLimitError: {
    type: 'object',
    description: 'Too many requests (status 429); `retry_after` equals the `Retry-After` header.',
    properties: {
      message: text('`Too Many Attempts.` or the limit that was reached'),
      retry_after: { type: 'integer', minimum: 0, description: 'Seconds to wait' },
    },
    required: ['message', 'retry_after'],
  },
  AutomationError: {
    type: 'object',
    description:
      'Automation refusals: a code, the specs of the params concerned, and extra keys some codes add (`errors`, `choices`, `conflicting_automation_id`).',
    properties: {
      message: text('What went wrong, in words'),
      error: text('The automation refusal code'),
      params: {
        type: ['array', 'null'],
        items: { type: 'object' },
        description: 'Specs of the params concerned, or null',
      },
    },
    required: ['message', 'error', 'params'],
  },
  IdempotencyError: {
    type: 'object',
    description: 'An `Idempotency-Key` that is still being processed (409) or was used with another body (422).',
    properties: {
      message: text('What went wrong, in words'),
      error: { type: 'string', enum: ['idempotency_key_in_use', 'idempotency_key_reused', 'idempotency_answer_lost'] },
    },
    required: ['message', 'error'],
  },
  ProviderFailureError: {
    type: 'object',
    description:
      'A provider refused or could not be reached (status 500, SMS send): nothing was charged, a retry is safe.',
    properties: { message: text('What failed, in words'), error: text("The provider's reason") },
    required: ['message', 'error'],
  },
  ChatappError: {
    type: 'object',
    description:
      'Chat-app routes (`/api/user/chatapp/...`, `/api/user/whatsapp/...`): a coded refusal; `SESSION_EXPIRED` adds `session_status`, ' +
      '`REQUEST_LIMIT` adds `reason` and `retry_at`, `CONCURRENT_LIMIT` and `CONTACT_RATE_LIMIT` (429) add `retry_after`.',
    properties: {
      success: { type: 'boolean', const: false },
      error: text('What went wrong, in words'),
      error_code: text('Stable chat-app error code'),
      session_status: { type: 'object' },
      reason: text('`REQUEST_LIMIT`: daily_limit, weekly_limit or already_granted'),
      retry_at: { type: ['string', 'null'], format: 'date-time' },
      retry_after: { type: 'integer', minimum: 0, description: 'Seconds to wait' },
    },
    required: ['success', 'error', 'error_code'],
  },
  ChatappValidationError: {
    type: 'object',
    description: 'Chat-app validation (status 422): the first message as `error`, every failing field in `errors`.',
    properties: {
      success: { type: 'boolean', const: false },
      error: text('The first message'),
      error_code: { type: 'string', const: 'VALIDATION_ERROR' },
      errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
    },
    required: ['success', 'error', 'error_code', 'errors'],
  },
  ChatappRateLimitError: {
    type: 'object',
    description: 'Chat-app quota reached (status 429), e.g. 5 sends per second.',
    properties: {
      success: { type: 'boolean', const: false },
      error: text('`Too many requests.`'),
      retry_after: { type: 'integer', minimum: 0 },
    },
    required: ['success', 'error', 'retry_after'],
  },
  ConversationError: {
    type: 'object',
    description: 'Conversation routes: `{status:false, error}`.',
    properties: { status: { type: 'boolean', const: false }, error: text('What went wrong, in words') },
    required: ['status', 'error'],
  },
  ConversationValidationError: {
    type: 'object',
    description: 'Conversation validation (status 422).',
    properties: {
      status: { type: 'boolean', const: false },
      error: { type: 'string', const: 'The given data was invalid.' },
      errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
    },
    required: ['status', 'error', 'errors'],
  },
  ChatbotValidationError: {
    type: 'object',
    description:
      "Chatbot validation (status 422): `error` is the first problem in the public reference's words (`message is required`).",
    properties: {
      status: { type: 'boolean', const: false },
      error: { type: 'string' },
      errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
    },
    required: ['status', 'error', 'errors'],
  },
  ConversationRateLimitError: {
    type: 'object',
    description: 'Widget quota (status 429); `retry_after` in seconds, as in `Retry-After`.',
    properties: {
      status: { type: 'boolean', const: false },
      error: { type: 'string' },
      retry_after: { type: 'integer' },
    },
    required: ['status', 'error', 'retry_after'],
  },
} satisfies Record<string, Schema>;

export type ErrorFamily = keyof typeof ERROR_FAMILY_SCHEMAS;

const VALIDATION_MESSAGE = 'The given data was invalid.';

/** A validation-family body, as the pipeline renders it. */
export function invalid(errors: Record<string, string[]>): object {
  return { message: VALIDATION_MESSAGE, errors };
}

/** The family a real error body belongs to, told by its keys; a body of no family is a bug of the examples. */
export function familyOf(status: number, body: object): ErrorFamily {
  if ('params' in body && 'error' in body) return 'AutomationError';
  const keys = Object.keys(body).sort().join(',');
  switch (keys) {
    case 'errors,message':
      return 'ValidationError';
    case 'message,retry_after':
      return 'RateLimitError';
    case 'error,message':
      return status >= 500 ? 'ProviderFailureError' : 'IdempotencyError';
    case 'message':
      return 'MessageError';
    case 'error':
      return status === 401 ? 'AuthError' : 'SipError';
    case 'error,error_code,success':
    case 'error,error_code,session_status,success':
    case 'error,error_code,reason,retry_at,success':
    case 'error,error_code,retry_after,success':
      return 'ChatappError';
    case 'error,error_code,errors,success':
      return 'ChatappValidationError';
    case 'error,retry_after,success':
      return 'ChatappRateLimitError';
    case 'error,status':
      return 'ConversationError';
    case 'error,errors,status':
      return (body as { error?: unknown }).error === VALIDATION_MESSAGE
        ? 'ConversationValidationError'
        : 'ChatbotValidationError';
    case 'error,retry_after,status':
      return 'ConversationRateLimitError';
    default:
      throw new Error(`error example of no family (${status}): ${JSON.stringify(body)}`);
  }
}
