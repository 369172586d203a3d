import { Answer, AnswerTable } from '../../pipeline/answers';

/** The conversation family's own 404 shape. */
export const CONVERSATION_NOT_FOUND: Answer = { status: 404, body: { status: false, error: 'Conversation not found' } };
export const CONVERSATION_ANSWERS: AnswerTable<'conversation_not_found'> = {
  conversation_not_found: CONVERSATION_NOT_FOUND,
};

/** Sandbox routes answer with the generic 404. */
export const SANDBOX_NOT_FOUND: Answer = { status: 404, body: { message: 'Not found.' } };
/** The sandbox's "end this conversation now" on a conversation that is not the caller's. */
export const SANDBOX_CONVERSATION_ANSWERS: AnswerTable<'conversation_not_found'> = {
  conversation_not_found: SANDBOX_NOT_FOUND,
};
