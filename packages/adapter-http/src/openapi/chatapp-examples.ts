/**
 * Handler error answers of the chat-app, conversation and chat-app sandbox operations, recorded from
 * chatapp.int.spec.ts (their success answers are recorded by the suites, in success-examples.json).
 */
const expiredSession = {
  is_open: false,
  can_send_freeform: false,
  requires_template: true,
  message: 'Session expired. Send a template message to reopen the conversation.',
  expired_at: '2026-11-23T13:07:00.000Z',
};
const coded = (error: string, error_code: string) => ({ success: false, error, error_code });
const SENDER_NOT_FOUND = coded('Sender not found or does not belong to you', 'SENDER_NOT_FOUND');
const chatappInvalid = (field: string, text: string) => ({
  success: false,
  error: text,
  error_code: 'VALIDATION_ERROR',
  errors: { [field]: [text] },
});
const CONVERSATION_NOT_FOUND = { status: false, error: 'Conversation not found' };
const SANDBOX_NOT_FOUND = { message: 'Not found.' };

export const CHATAPP_HANDLER_ERRORS: Readonly<Record<string, Readonly<Record<number, readonly object[]>>>> = {
  'GET /api/user/chatapp/senders': { 422: [chatappInvalid('status', 'The selected status is invalid.')] },
  'POST /api/user/chatapp/senders': {
    409: [coded('A sender with this phone number already exists.', 'SENDER_EXISTS')],
    422: [chatappInvalid('display_name', 'The display name field is required.')],
  },
  'GET /api/user/chatapp/senders/{id}': { 404: [SENDER_NOT_FOUND] },
  'PUT /api/user/chatapp/senders/{id}': {
    404: [SENDER_NOT_FOUND],
    422: [chatappInvalid('assistant_id', 'The selected assistant id is invalid.')],
  },
  'GET /api/user/chatapp/senders/{sender_id}/templates': { 404: [SENDER_NOT_FOUND] },
  'POST /api/user/chatapp/senders/{sender_id}/templates': {
    404: [SENDER_NOT_FOUND],
    409: [coded('A template with this name and language already exists for this sender.', 'TEMPLATE_EXISTS')],
    422: [
      chatappInvalid('body_text', 'The body text may not mix positional ({{1}}) and named ({{name}}) placeholders.'),
    ],
  },
  'GET /api/user/chatapp/templates': {
    404: [SENDER_NOT_FOUND],
    422: [chatappInvalid('sender_id', 'The sender id field is required.')],
  },
  'POST /api/user/chatapp/send': {
    402: [coded('Insufficient balance to send this message.', 'INSUFFICIENT_BALANCE')],
    404: [SENDER_NOT_FOUND, coded('Template not found or does not belong to this sender', 'TEMPLATE_NOT_FOUND')],
    422: [
      coded('Invalid phone number format. Use E.164 format (e.g., +14155551234).', 'INVALID_PHONE'),
      coded('Sender is not online. Current status: offline', 'SENDER_OFFLINE'),
      coded('Template is not approved. Current status: pending', 'TEMPLATE_NOT_APPROVED'),
      coded('Missing template variables: 2', 'TEMPLATE_VARIABLES_MISSING'),
      coded('The chat app rejected the message: sandbox fault injected (chatapp_send)', 'SEND_FAILED'),
      chatappInvalid('sender_id', 'The sender id field is required.'),
    ],
  },
  'POST /api/user/chatapp/send-freeform': {
    402: [coded('Insufficient balance to send this message.', 'INSUFFICIENT_BALANCE')],
    403: [
      {
        ...coded('Session expired. Send a template message to reopen the conversation.', 'SESSION_EXPIRED'),
        session_status: expiredSession,
      },
    ],
    404: [SENDER_NOT_FOUND],
    422: [
      coded('Invalid phone number format. Use E.164 format (e.g., +14155551234).', 'INVALID_PHONE'),
      coded('The media file could not be fetched: the server answered 404', 'MEDIA_FETCH_FAILED'),
      coded('The chat app rejected the message: sandbox fault injected (chatapp_send)', 'SEND_FAILED'),
      chatappInvalid('message', 'The message field is required when media url is not present.'),
    ],
    503: [coded('Sender is not online. Current status: offline', 'SENDER_OFFLINE')],
  },
  'GET /api/user/chatapp/session-status': {
    404: [SENDER_NOT_FOUND],
    422: [
      coded('Invalid phone number format. Use E.164 format (e.g., +14155551234).', 'INVALID_PHONE'),
      chatappInvalid('sender_id', 'The sender id field is required.'),
    ],
  },
  'GET /api/user/chatapp/messages/{message_sid}': { 404: [coded('Message not found', 'MESSAGE_NOT_FOUND')] },
  'GET /api/user/chatapp/media/{media_id}': { 404: [SANDBOX_NOT_FOUND] },
  'GET /api/user/conversations': {
    422: [
      { status: false, error: 'The given data was invalid.', errors: { cursor: ['The selected cursor is invalid.'] } },
    ],
  },
  'GET /api/user/conversations/{uuid}': { 404: [CONVERSATION_NOT_FOUND] },
  'GET /api/user/conversations/{uuid}/messages': { 404: [CONVERSATION_NOT_FOUND] },
  'POST /api/user/conversations/{uuid}/disable-ai': { 404: [CONVERSATION_NOT_FOUND] },
  'POST /api/user/conversations/{uuid}/enable-ai': { 404: [CONVERSATION_NOT_FOUND] },
  'POST /api/sandbox/chatapp/inbound-message': { 404: [SANDBOX_NOT_FOUND] },
  'PUT /api/sandbox/chatapp/senders/{id}/status': { 404: [SANDBOX_NOT_FOUND] },
  'PUT /api/sandbox/chatapp/templates/{id}/status': { 404: [SANDBOX_NOT_FOUND] },
  'POST /api/sandbox/chatapp/messages/{message_sid}/status': { 404: [SANDBOX_NOT_FOUND] },
  'POST /api/sandbox/chatapp/expire-window': { 404: [SANDBOX_NOT_FOUND] },
  'GET /api/sandbox/chatapp/outbox': {
    422: [{ message: 'The given data was invalid.', errors: { sender_id: ['The sender id must be an integer.'] } }],
  },
  'POST /api/sandbox/conversations/{uuid}/end-now': { 404: [SANDBOX_NOT_FOUND] },
};
