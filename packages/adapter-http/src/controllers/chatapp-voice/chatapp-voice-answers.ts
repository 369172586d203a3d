import { CallPermissionAnswerRefusal } from '@voiceplane/domain';
import { PlaceChatappCallRefusal, ReadCallPermissionRefusal, RequestCallPermissionRefusal } from '@voiceplane/application';
import { Answer, AnswerTable } from '../../pipeline/answers';

/** A chat-app family refusal: `{success:false, error, error_code}` plus extra keys. */
function chatappAnswer(status: number, errorCode: string, error: string, extra: Record<string, unknown> = {}, headers?: Record<string, string>): Answer {
  return { status, body: { success: false, error, error_code: errorCode, ...extra }, headers };
}

export const VOICE_SENDER_NOT_FOUND = chatappAnswer(404, 'SENDER_NOT_FOUND', 'Sender not found or does not belong to you');
export const VOICE_INVALID_PHONE = chatappAnswer(422, 'INVALID_PHONE', 'Invalid phone number format. Use E.164 format (e.g., +14155551234).');
const VOICE_DISABLED = chatappAnswer(422, 'VOICE_DISABLED', 'Calling is not enabled for this sender.');
const regionNotSupported = ({ country }: { country: string }) =>
  chatappAnswer(422, 'REGION_NOT_SUPPORTED', `Business-initiated calls are not available for senders in ${country}.`);

const REQUEST_LIMIT_TEXTS = {
  daily_limit: 'A call permission request was already sent to this contact in the last 24 hours.',
  weekly_limit: 'The weekly limit of 2 call permission requests for this contact has been reached.',
  already_granted: 'This contact has already granted call permission.',
} as const;

/** `POST …/voice/request`. */
export const PERMISSION_REQUEST_ANSWERS: AnswerTable<RequestCallPermissionRefusal> = {
  SENDER_NOT_FOUND: VOICE_SENDER_NOT_FOUND,
  INVALID_PHONE: VOICE_INVALID_PHONE,
  VOICE_DISABLED,
  REGION_NOT_SUPPORTED: regionNotSupported,
  TEMPLATE_NOT_FOUND: chatappAnswer(422, 'TEMPLATE_NOT_FOUND', 'No approved Voice Call Request template found for this sender.'),
  SESSION_CLOSED: chatappAnswer(422, 'SESSION_CLOSED', 'The customer has not messaged you in the last 24 hours.'),
  REQUEST_LIMIT: ({ reason, retryAt }) => chatappAnswer(422, 'REQUEST_LIMIT', REQUEST_LIMIT_TEXTS[reason], {
    reason, retry_at: retryAt?.toISOString() ?? null,
  }),
  SEND_FAILED: ({ reason }) => chatappAnswer(422, 'SEND_FAILED', `The chat app rejected the message: ${reason}`),
};

/** `GET …/voice/permission`. */
export const PERMISSION_READ_ANSWERS: AnswerTable<ReadCallPermissionRefusal> = {
  SENDER_NOT_FOUND: VOICE_SENDER_NOT_FOUND,
  INVALID_PHONE: VOICE_INVALID_PHONE,
};

/** `POST …/voice/call`. */
export const CHATAPP_CALL_ANSWERS: AnswerTable<PlaceChatappCallRefusal> = {
  SENDER_NOT_FOUND: VOICE_SENDER_NOT_FOUND,
  INVALID_PHONE: VOICE_INVALID_PHONE,
  FEATURE_DISABLED: chatappAnswer(422, 'FEATURE_DISABLED', 'Chat-app calling is not available on this workspace.'),
  VOICE_DISABLED,
  CALLING_NOT_ENABLED: chatappAnswer(422, 'CALLING_NOT_ENABLED', 'Calling is not enabled for this sender.'),
  SENDER_OFFLINE: chatappAnswer(422, 'SENDER_OFFLINE', 'Sender is not online. Current status: offline'),
  REGION_NOT_SUPPORTED: regionNotSupported,
  NO_ASSISTANT: chatappAnswer(422, 'NO_ASSISTANT', 'This sender has no assistant.'),
  ASSISTANT_BLOCKED: chatappAnswer(403, 'ASSISTANT_BLOCKED', 'The sender\'s assistant is unavailable for compliance review.'),
  NO_PERMISSION: ({ reason }) => chatappAnswer(422, 'NO_PERMISSION', reason === 'permission_expired'
    ? 'The customer\'s call permission has expired.'
    : 'The customer has not granted call permission.'),
  INSUFFICIENT_BALANCE: chatappAnswer(402, 'INSUFFICIENT_BALANCE', 'Insufficient balance to place this call.'),
  CONCURRENT_LIMIT: ({ retryAfterSeconds }) => chatappAnswer(429, 'CONCURRENT_LIMIT', 'Too many calls are already in progress for this sender.', {
    retry_after: retryAfterSeconds,
  }, { 'Retry-After': String(retryAfterSeconds) }),
  CONTACT_RATE_LIMIT: ({ retryAfterSeconds }) => chatappAnswer(429, 'CONTACT_RATE_LIMIT', 'Too many call attempts to this contact. Try again later.', {
    retry_after: retryAfterSeconds,
  }, { 'Retry-After': String(retryAfterSeconds) }),
};

/** Sandbox S2: message family. */
export const SANDBOX_PERMISSION_REPLY_ANSWERS: AnswerTable<CallPermissionAnswerRefusal | 'not_found'> = {
  not_found: { status: 404, body: { message: 'Not found.' } },
  not_granted: { status: 422, body: { message: 'Only a granted permission can be revoked.' } },
  nothing_to_decline: { status: 422, body: { message: 'There is no pending or granted permission to decline.' } },
};
