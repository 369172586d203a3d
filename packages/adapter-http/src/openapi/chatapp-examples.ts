/**
 * Success and error answers of the chat-app, conversation and chat-app sandbox operations, recorded from
 * chatapp.int.spec.ts (times and ids as the server produced them).
 */
const AT = '2026-11-23T13:08:00.000Z';
const SID = 'SM3f9a2c4e8b1d4f6a9c0e2b4d6f8a1c3e';
const UUID = '9b2f6c1e-4a7d-4c1b-9d7e-2f1a0c3b5e66';

const sender = {
  id: 12, phone_number: '+4915112345678', display_name: 'Acme Support', status: 'online', quality_rating: 'GREEN', messaging_limit: 1000,
  messaging_limit_formatted: '1,000 / 24hr', country_code: 'DE', assistant_id: null, calling_enabled: false, status_webhook_url: null,
  provider: 'sandbox', created_at: AT, updated_at: AT,
};
const template = {
  id: 34, sender_id: 12, name: 'order_update', language: 'en', category: 'utility', status: 'approved',
  body_text: 'Hi {{1}}, your order {{2}} has shipped.', variables: ['1', '2'], has_variables: true, rejection_reason: null, created_at: AT, updated_at: AT,
};
const openSession = {
  is_open: true, can_send_freeform: true, requires_template: false,
  message: 'Session open (23 hr 59 min remaining). Unlimited free-form messages allowed.', minutes_remaining: 1439, expires_at: '2026-11-24T13:08:00.000Z',
};
const expiredSession = {
  is_open: false, can_send_freeform: false, requires_template: true,
  message: 'Session expired. Send a template message to reopen the conversation.', expired_at: '2026-11-23T13:07:00.000Z',
};
const chatappMessage = {
  id: 9120, message_id: 5531, sender_id: 12, conversation_id: 880, direction: 'outbound', from: '+4915112345678', to: '+14155551234',
  message_sid: SID, provider_message_id: 'sbx_4Gk9Tz2Qm7Xv1Lp5Rn8Wc3Hd', status: 'delivered', error_code: null, error_message: null, cost: 0.05,
  status_history: [{ status: 'queued', at: AT }, { status: 'delivered', at: AT }], created_at: AT, updated_at: AT,
};
const conversation = {
  id: 880, uuid: UUID, type: 'chatapp', sender_id: 12, assistant_id: 101, customer_phone: '+14155551234', customer_name: 'Ann', status: 'open',
  ai_enabled: true, ai_disabled_at: null, message_count: 2, last_message_at: AT, last_customer_message_at: AT, window_expires_at: '2026-11-24T13:08:00.000Z',
  ended_count: 0, ended_at: null, created_at: AT, updated_at: AT,
};
const message = {
  id: 5532, conversation_id: 880, direction: 'outbound', source: 'ai', role: 'assistant', type: 'text', body: 'Thanks for your message! (sandbox reply)',
  media_url: null, media_type: null, filename: null, template_id: null, chatapp_message_id: 9121, message_sid: 'SM0b7d9e1f3a5c4e2d8f6a0c1e3b5d7f9a',
  status: 'queued', error_code: null, created_at: AT,
};

export const CHATAPP_SUCCESS_EXAMPLES: Readonly<Record<string, unknown>> = {
  'GET /api/user/chatapp/senders': { data: [sender] },
  'POST /api/user/chatapp/senders': { success: true, data: sender },
  'GET /api/user/chatapp/senders/{id}': { success: true, data: sender },
  'PUT /api/user/chatapp/senders/{id}': { success: true, data: sender },
  'GET /api/user/chatapp/senders/{sender_id}/templates': { data: [template] },
  'POST /api/user/chatapp/senders/{sender_id}/templates': { success: true, data: template },
  'GET /api/user/chatapp/templates': { data: [template] },
  'POST /api/user/chatapp/send': { success: true, conversation_id: 880, message_id: 5531, chatapp_message_id: 9120, message_sid: SID, status: 'queued' },
  'POST /api/user/chatapp/send-freeform': {
    success: true, conversation_id: 880, message_id: 5532, chatapp_message_id: 9121, message_sid: 'SM0b7d9e1f3a5c4e2d8f6a0c1e3b5d7f9a', session_status: openSession,
  },
  'GET /api/user/chatapp/session-status': {
    success: true, has_conversation: true, conversation_id: 880, conversation_uuid: UUID, customer_name: 'Ann', last_customer_message_at: null,
    window_opened_by: 'template', session_status: openSession,
  },
  'GET /api/user/chatapp/messages/{message_sid}': { success: true, data: chatappMessage },
  // The file's own bytes with its stored Content-Type (e.g. image/jpeg); shown here as a placeholder.
  'GET /api/user/chatapp/media/{media_id}': '<the file, with its stored Content-Type>',
  'GET /api/user/conversations': { status: true, data: [conversation], next_cursor: null, prev_cursor: null, per_page: 15 },
  'GET /api/user/conversations/{uuid}': { status: true, data: conversation },
  'GET /api/user/conversations/{uuid}/messages': { status: true, data: [message], next_cursor: 'eyJpIjo1NTMxfQ', prev_cursor: null, per_page: 1 },
  'POST /api/user/conversations/{uuid}/disable-ai': { status: true, ai_enabled: false },
  'POST /api/user/conversations/{uuid}/enable-ai': { status: true, ai_enabled: true },
  'POST /api/sandbox/chatapp/inbound-message': {
    ok: true, conversation_id: 880, conversation_uuid: UUID, message_id: 5540, ai_reply: { message_id: 5541, body: 'Thanks for your message! (sandbox reply)', status: 'queued' },
  },
  'PUT /api/sandbox/chatapp/senders/{id}/status': { ok: true, data: { ...sender, status: 'offline' } },
  'PUT /api/sandbox/chatapp/templates/{id}/status': { ok: true, data: { ...template, status: 'pending' } },
  'POST /api/sandbox/chatapp/messages/{message_sid}/status': { ok: true, data: chatappMessage },
  'POST /api/sandbox/chatapp/expire-window': { ok: true, session_status: expiredSession },
  'GET /api/sandbox/chatapp/outbox': {
    data: [{ message_sid: SID, sender_id: 12, to: '+14155551234', type: 'template', body: 'Hi Ann, your order A-1001 has shipped.', media_url: null, template_id: 34, at: AT }],
  },
  'POST /api/sandbox/conversations/{uuid}/end-now': { ok: true, conversation: { ...conversation, status: 'ended', ended_count: 1, ended_at: AT } },
};

const coded = (error: string, error_code: string) => ({ success: false, error, error_code });
const SENDER_NOT_FOUND = coded('Sender not found or does not belong to you', 'SENDER_NOT_FOUND');
const chatappInvalid = (field: string, text: string) => ({ success: false, error: text, error_code: 'VALIDATION_ERROR', errors: { [field]: [text] } });
const CONVERSATION_NOT_FOUND = { status: false, error: 'Conversation not found' };
const SANDBOX_NOT_FOUND = { message: 'Not found.' };

export const CHATAPP_HANDLER_ERRORS: Readonly<Record<string, Readonly<Record<number, readonly object[]>>>> = {
  'GET /api/user/chatapp/senders': { 422: [chatappInvalid('status', 'The selected status is invalid.')] },
  'POST /api/user/chatapp/senders': {
    409: [coded('A sender with this phone number already exists.', 'SENDER_EXISTS')],
    422: [chatappInvalid('display_name', 'The display name field is required.')],
  },
  'GET /api/user/chatapp/senders/{id}': { 404: [SENDER_NOT_FOUND] },
  'PUT /api/user/chatapp/senders/{id}': { 404: [SENDER_NOT_FOUND], 422: [chatappInvalid('assistant_id', 'The selected assistant id is invalid.')] },
  'GET /api/user/chatapp/senders/{sender_id}/templates': { 404: [SENDER_NOT_FOUND] },
  'POST /api/user/chatapp/senders/{sender_id}/templates': {
    404: [SENDER_NOT_FOUND],
    409: [coded('A template with this name and language already exists for this sender.', 'TEMPLATE_EXISTS')],
    422: [chatappInvalid('body_text', 'The body text may not mix positional ({{1}}) and named ({{name}}) placeholders.')],
  },
  'GET /api/user/chatapp/templates': { 404: [SENDER_NOT_FOUND], 422: [chatappInvalid('sender_id', 'The sender id field is required.')] },
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
    403: [{ ...coded('Session expired. Send a template message to reopen the conversation.', 'SESSION_EXPIRED'), session_status: expiredSession }],
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
    422: [coded('Invalid phone number format. Use E.164 format (e.g., +14155551234).', 'INVALID_PHONE'), chatappInvalid('sender_id', 'The sender id field is required.')],
  },
  'GET /api/user/chatapp/messages/{message_sid}': { 404: [coded('Message not found', 'MESSAGE_NOT_FOUND')] },
  'GET /api/user/chatapp/media/{media_id}': { 404: [SANDBOX_NOT_FOUND] },
  'GET /api/user/conversations': { 422: [{ status: false, error: 'The given data was invalid.', errors: { cursor: ['The selected cursor is invalid.'] } }] },
  'GET /api/user/conversations/{uuid}': { 404: [CONVERSATION_NOT_FOUND] },
  'GET /api/user/conversations/{uuid}/messages': { 404: [CONVERSATION_NOT_FOUND] },
  'POST /api/user/conversations/{uuid}/disable-ai': { 404: [CONVERSATION_NOT_FOUND] },
  'POST /api/user/conversations/{uuid}/enable-ai': { 404: [CONVERSATION_NOT_FOUND] },
  'POST /api/sandbox/chatapp/inbound-message': { 404: [SANDBOX_NOT_FOUND] },
  'PUT /api/sandbox/chatapp/senders/{id}/status': { 404: [SANDBOX_NOT_FOUND] },
  'PUT /api/sandbox/chatapp/templates/{id}/status': { 404: [SANDBOX_NOT_FOUND] },
  'POST /api/sandbox/chatapp/messages/{message_sid}/status': { 404: [SANDBOX_NOT_FOUND] },
  'POST /api/sandbox/chatapp/expire-window': { 404: [SANDBOX_NOT_FOUND] },
  'GET /api/sandbox/chatapp/outbox': { 422: [{ message: 'The given data was invalid.', errors: { sender_id: ['The sender id must be an integer.'] } }] },
  'POST /api/sandbox/conversations/{uuid}/end-now': { 404: [SANDBOX_NOT_FOUND] },
};
