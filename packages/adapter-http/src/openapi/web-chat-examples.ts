/** Handler error answers of the chatbot, generate-reply and widget operations, recorded from web-chat.int.spec.ts and widget.int.spec.ts. */
const invalid = (errors: Record<string, string[]>) => ({ message: 'The given data was invalid.', errors });
const CONVERSATION_404 = { status: false, error: 'Conversation not found' };
const BALANCE_400 = { status: false, error: 'Insufficient balance. Please top up your account.' };
const ASSISTANT_404 = { message: 'Assistant not found' };
const WIDGET_404 = { status: false, error: 'Widget not found' };
const ORIGIN_403 = { status: false, error: 'This website may not use this chat widget.' };

export const WEB_CHAT_HANDLER_ERRORS: Readonly<Record<string, Readonly<Record<number, readonly object[]>>>> = {
  'POST /api/conversations': {
    400: [BALANCE_400],
    404: [{ status: false, error: 'Assistant not found' }],
    422: [
      {
        status: false,
        error: 'assistant_id is required',
        errors: { assistant_id: ['The assistant id field is required.'] },
      },
    ],
  },
  'GET /api/conversations/{uuid}': { 404: [CONVERSATION_404] },
  'POST /api/conversations/{uuid}/messages': {
    400: [
      BALANCE_400,
      { status: false, error: "Failed to process message: the assistant's language model did not answer" },
    ],
    404: [CONVERSATION_404],
    422: [{ status: false, error: 'message is required', errors: { message: ['The message field is required.'] } }],
  },
  'POST /api/user/ai/generate-reply': {
    402: [
      {
        success: false,
        error: 'Insufficient balance. Please top up your account.',
        error_code: 'INSUFFICIENT_BALANCE',
      },
    ],
    404: [
      { success: false, error: 'Assistant not found or does not belong to you', error_code: 'ASSISTANT_NOT_FOUND' },
    ],
    422: [invalid({ assistant_id: ['The assistant id field is required.'] })],
  },
  'POST /api/user/conversations/{uuid}/messages': {
    404: [CONVERSATION_404],
    422: [
      { status: false, error: 'The given data was invalid.', errors: { message: ['The message field is required.'] } },
    ],
  },
  'GET /api/user/assistant/{id}/widget': { 404: [ASSISTANT_404] },
  'PUT /api/user/assistant/{id}/widget': {
    404: [ASSISTANT_404],
    422: [
      invalid({
        'allowed_origins.0': ['The allowed_origins.0 must be an http or https origin (scheme://host[:port]).'],
      }),
    ],
  },
  'POST /api/user/assistant/{id}/widget/rotate-key': { 404: [ASSISTANT_404] },
  'POST /api/widget/{key}/conversations': { 403: [ORIGIN_403], 404: [WIDGET_404] },
  'GET /api/widget/{key}/conversations/{uuid}': { 403: [ORIGIN_403], 404: [CONVERSATION_404, WIDGET_404] },
  'POST /api/widget/{key}/conversations/{uuid}/messages': {
    403: [ORIGIN_403],
    404: [CONVERSATION_404, WIDGET_404],
    429: [
      { status: false, error: 'Too many messages. Please wait a moment.', retry_after: 42 },
      { status: false, error: 'The assistant has reached its limit for today. Please try again tomorrow.' },
    ],
  },
};
