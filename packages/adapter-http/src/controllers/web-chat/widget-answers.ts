import { WidgetFailure } from '@voiceplane/application';
import { AnswerTable } from '../../pipeline/answers';

/** The public widget routes: `{status:false,error}` like the chatbot's; nothing in them tells a page about the account. */
export const WIDGET_ANSWERS: AnswerTable<WidgetFailure> = {
  widget_not_found: { status: 404, body: { status: false, error: 'Widget not found' } },
  origin_not_allowed: { status: 403, body: { status: false, error: 'This website may not use this chat widget.' } },
  conversation_not_found: { status: 404, body: { status: false, error: 'Conversation not found' } },
  rate_limited: (r) => ({
    status: 429,
    body: { status: false, error: 'Too many messages. Please wait a moment.', retry_after: r.retryAfter },
    headers: { 'Retry-After': String(r.retryAfter) },
  }),
  insufficient_balance: { status: 503, body: { status: false, error: 'The assistant cannot answer right now.' } },
  daily_cap_reached: {
    status: 429,
    body: { status: false, error: 'The assistant has reached its limit for today. Please try again tomorrow.' },
  },
  processing_failed: { status: 502, body: { status: false, error: 'The assistant did not answer. Please try again.' } },
};
