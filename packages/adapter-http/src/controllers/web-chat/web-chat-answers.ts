import { ReplyRefusal } from '@voiceplane/application';
import { AnswerTable } from '../../pipeline/answers';

const INSUFFICIENT_BALANCE = 'Insufficient balance. Please top up your account.';

/** The chatbot routes (`/api/conversations…`): the conversation family's `{status:false,error}`, texts as the public reference words them. */
export const CHATBOT_ANSWERS: AnswerTable<ReplyRefusal | 'assistant_not_found'> = {
  assistant_not_found: { status: 404, body: { status: false, error: 'Assistant not found' } },
  conversation_not_found: { status: 404, body: { status: false, error: 'Conversation not found' } },
  insufficient_balance: { status: 400, body: { status: false, error: INSUFFICIENT_BALANCE } },
  processing_failed: {
    status: 400,
    body: { status: false, error: "Failed to process message: the assistant's language model did not answer" },
  },
  daily_cap_reached: {
    status: 429,
    body: { status: false, error: "The assistant's daily spending cap is reached. Please try again tomorrow." },
  },
};

/** `generate-reply`: `{success:false,error,error_code}`, with the public reference's codes and its 402 for a low balance. */
export const GENERATE_REPLY_ANSWERS: AnswerTable<ReplyRefusal | 'assistant_not_found'> = {
  assistant_not_found: {
    status: 404,
    body: { success: false, error: 'Assistant not found or does not belong to you', error_code: 'ASSISTANT_NOT_FOUND' },
  },
  conversation_not_found: {
    status: 404,
    body: { success: false, error: 'Assistant not found or does not belong to you', error_code: 'ASSISTANT_NOT_FOUND' },
  },
  insufficient_balance: {
    status: 402,
    body: { success: false, error: INSUFFICIENT_BALANCE, error_code: 'INSUFFICIENT_BALANCE' },
  },
  processing_failed: {
    status: 400,
    body: {
      success: false,
      error: "Failed to generate a reply: the assistant's language model did not answer",
      error_code: 'PROCESSING_ERROR',
    },
  },
  daily_cap_reached: {
    status: 429,
    body: { success: false, error: "The assistant's daily spending cap is reached.", error_code: 'DAILY_CAP_REACHED' },
  },
};
