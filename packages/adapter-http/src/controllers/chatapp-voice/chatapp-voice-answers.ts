import { CallPermissionAnswerRefusal, DO_NOT_CALL_MESSAGE } from '@voiceplane/domain';
import {
  PlaceChatappCallRefusal,
  ReadCallPermissionRefusal,
  RequestCallPermissionRefusal,
} from '@voiceplane/application';
import { Answer, AnswerTable } from '../../pipeline/answers';

/**
 * A chat-app family refusal: `{success:false, error, error_code}` plus extra keys. `error_code` is
 * the upper-case wire code clients match on; the tables below are the only place it is spelled.
 */
function chatappAnswer(
  status: number,
  errorCode: string,
  error: string,
  extra: Record<string, unknown> = {},
  headers?: Record<string, string>,
): Answer {
  return { status, body: { success: false, error, error_code: errorCode, ...extra }, headers };
}

export const VOICE_SENDER_NOT_FOUND = chatappAnswer(
  404,
  'SENDER_NOT_FOUND',
  'Sender not found or does not belong to you',
);
export const VOICE_INVALID_PHONE = chatappAnswer(
  422,
  'INVALID_PHONE',
  'Invalid phone number format. Use E.164 format (e.g., +14155551234).',
);
const voiceDisabled = chatappAnswer(422, 'VOICE_DISABLED', 'Calling is not enabled for this sender.');
const regionNotSupported = ({ country }: { country: string }) =>
  chatappAnswer(422, 'REGION_NOT_SUPPORTED', `Business-initiated calls are not available for senders in ${country}.`);

const REQUEST_LIMIT_TEXTS = {
  daily_limit: 'A call permission request was already sent to this contact in the last 24 hours.',
  weekly_limit: 'The weekly limit of 2 call permission requests for this contact has been reached.',
  already_granted: 'This contact has already granted call permission.',
} as const;

/** `POST …/voice/request`. */
export const PERMISSION_REQUEST_ANSWERS: AnswerTable<RequestCallPermissionRefusal> = {
  sender_not_found: VOICE_SENDER_NOT_FOUND,
  invalid_phone: VOICE_INVALID_PHONE,
  voice_disabled: voiceDisabled,
  region_not_supported: regionNotSupported,
  template_missing: chatappAnswer(
    422,
    'TEMPLATE_NOT_FOUND',
    'No approved Voice Call Request template found for this sender.',
  ),
  session_closed: chatappAnswer(422, 'SESSION_CLOSED', 'The customer has not messaged you in the last 24 hours.'),
  request_limit: ({ reason, retryAt }) =>
    chatappAnswer(422, 'REQUEST_LIMIT', REQUEST_LIMIT_TEXTS[reason], {
      reason,
      retry_at: retryAt?.toISOString() ?? null,
    }),
  send_failed: ({ reason }) => chatappAnswer(422, 'SEND_FAILED', `The chat app rejected the message: ${reason}`),
};

/** `GET …/voice/permission`. */
export const PERMISSION_READ_ANSWERS: AnswerTable<ReadCallPermissionRefusal> = {
  sender_not_found: VOICE_SENDER_NOT_FOUND,
  invalid_phone: VOICE_INVALID_PHONE,
};

/** `POST …/voice/call`. */
export const CHATAPP_CALL_ANSWERS: AnswerTable<PlaceChatappCallRefusal> = {
  sender_not_found: VOICE_SENDER_NOT_FOUND,
  invalid_phone: VOICE_INVALID_PHONE,
  do_not_call: chatappAnswer(422, 'DO_NOT_CALL', DO_NOT_CALL_MESSAGE),
  feature_disabled: chatappAnswer(422, 'FEATURE_DISABLED', 'Chat-app calling is not available on this workspace.'),
  voice_disabled: voiceDisabled,
  calling_not_enabled: chatappAnswer(422, 'CALLING_NOT_ENABLED', 'Calling is not enabled for this sender.'),
  sender_offline: chatappAnswer(422, 'SENDER_OFFLINE', 'Sender is not online. Current status: offline'),
  region_not_supported: regionNotSupported,
  no_assistant: chatappAnswer(422, 'NO_ASSISTANT', 'This sender has no assistant.'),
  assistant_blocked: chatappAnswer(
    403,
    'ASSISTANT_BLOCKED',
    "The sender's assistant is unavailable for compliance review.",
  ),
  // One wire code, two texts: never granted versus a grant that ran out.
  no_permission: chatappAnswer(422, 'NO_PERMISSION', 'The customer has not granted call permission.'),
  permission_expired: chatappAnswer(422, 'NO_PERMISSION', "The customer's call permission has expired."),
  insufficient_balance: chatappAnswer(402, 'INSUFFICIENT_BALANCE', 'Insufficient balance to place this call.'),
  concurrent_limit: ({ retryAfterSeconds }) =>
    chatappAnswer(
      429,
      'CONCURRENT_LIMIT',
      'Too many calls are already in progress for this sender.',
      {
        retry_after: retryAfterSeconds,
      },
      { 'Retry-After': String(retryAfterSeconds) },
    ),
  contact_rate_limit: ({ retryAfterSeconds }) =>
    chatappAnswer(
      429,
      'CONTACT_RATE_LIMIT',
      'Too many call attempts to this contact. Try again later.',
      {
        retry_after: retryAfterSeconds,
      },
      { 'Retry-After': String(retryAfterSeconds) },
    ),
};

/** Sandbox permission reply: refusals answer `{"message": …}`. */
export const SANDBOX_PERMISSION_REPLY_ANSWERS: AnswerTable<CallPermissionAnswerRefusal | 'not_found'> = {
  not_found: { status: 404, body: { message: 'Not found.' } },
  not_granted: { status: 422, body: { message: 'Only a granted permission can be revoked.' } },
  nothing_to_decline: { status: 422, body: { message: 'There is no pending or granted permission to decline.' } },
};
