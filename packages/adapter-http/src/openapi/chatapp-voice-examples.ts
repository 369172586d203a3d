/** Handler error answers of the chat-app voice operations, recorded from chatapp-voice.int.spec.ts and voice-webhook.int.spec.ts. */
const coded = (error: string, error_code: string, extra: Record<string, unknown> = {}) => ({
  success: false,
  error,
  error_code,
  ...extra,
});
const SENDER_NOT_FOUND = coded('Sender not found or does not belong to you', 'SENDER_NOT_FOUND');
const INVALID_PHONE = coded('Invalid phone number format. Use E.164 format (e.g., +14155551234).', 'INVALID_PHONE');
const invalid = (field: string, text: string) => ({
  success: false,
  error: text,
  error_code: 'VALIDATION_ERROR',
  errors: { [field]: [text] },
});

export const CHATAPP_VOICE_HANDLER_ERRORS: Readonly<Record<string, Readonly<Record<number, readonly object[]>>>> = {
  'PUT /api/user/chatapp/voice/webhook': { 422: [invalid('webhook_url', 'The webhook url field is required.')] },
  'POST /api/user/chatapp/voice/request': {
    404: [SENDER_NOT_FOUND],
    422: [
      INVALID_PHONE,
      coded('A call permission request was already sent to this contact in the last 24 hours.', 'REQUEST_LIMIT', {
        reason: 'daily_limit',
        retry_at: '2026-11-24T13:52:09.904Z',
      }),
      invalid('sender_id', 'The sender id field is required.'),
    ],
  },
  'GET /api/user/chatapp/voice/permission': { 404: [SENDER_NOT_FOUND], 422: [INVALID_PHONE] },
  'POST /api/user/chatapp/voice/call': {
    402: [coded('Insufficient balance to place this call.', 'INSUFFICIENT_BALANCE')],
    403: [coded("The sender's assistant is unavailable for compliance review.", 'ASSISTANT_BLOCKED')],
    404: [SENDER_NOT_FOUND],
    422: [
      coded('The customer has not granted call permission.', 'NO_PERMISSION'),
      invalid('variables', 'The variables may not have more than 20 items.'),
    ],
    429: [
      coded('Too many call attempts to this contact. Try again later.', 'CONTACT_RATE_LIMIT', { retry_after: 287 }),
    ],
  },
  'POST /api/sandbox/chatapp/permission-reply': {
    404: [{ message: 'Not found.' }],
    422: [{ message: 'Only a granted permission can be revoked.' }],
  },
};
