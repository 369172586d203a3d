import { DO_NOT_CALL_MESSAGE, InvalidTransition } from '@voiceplane/domain';
import {
  CallEventRefusal,
  DeleteCallRefusal,
  InboundCallRefusal,
  MakeCallRefusal,
  SayRefusal,
} from '@voiceplane/application';
import { Answer, AnswerTable } from '../../pipeline/answers';
import { ASSISTANT_NOT_FOUND } from '../assistants/assistant-answers';
import { CALL_MESSAGES } from './call-messages';

export const CALL_NOT_FOUND: Answer = { status: 404, body: { message: CALL_MESSAGES.notFound } };
/** A call read by its owner or by the runtime. */
export const CALL_ANSWERS: AnswerTable<'call_not_found'> = { call_not_found: CALL_NOT_FOUND };
/** Deleting a call: only once it has ended. */
export const DELETE_CALL_ANSWERS: AnswerTable<DeleteCallRefusal> = {
  call_not_found: CALL_NOT_FOUND,
  call_in_progress: { status: 409, body: { message: CALL_MESSAGES.inProgress } },
};
/** Sandbox routes answer with the generic 404. */
export const SANDBOX_NOT_FOUND: Answer = { status: 404, body: { message: 'Not found.' } };
export const RECORDING_NOT_FOUND: Answer = { status: 404, body: { message: 'Recording not found' } };
/** A LiveKit notice whose signature does not verify. */
export const RECORDING_NOTICE_UNSIGNED: Answer = { status: 401, body: { error: 'Invalid signature.' } };

/** A line said on a sandbox call (`say`). */
export const SAY_ANSWERS: AnswerTable<SayRefusal> = {
  call_not_found: SANDBOX_NOT_FOUND,
  not_in_progress: { status: 409, body: { message: 'The call is not in progress.' } },
  transcript_full: ({ max }) => ({
    status: 409,
    body: {
      message: `The call's transcript is full (${max.toLocaleString('en')} lines); end the call and start another.`,
    },
  }),
  model_failed: { status: 502, body: { message: "The assistant's language model did not answer." } },
};

/** make_call with a `to` that is not E.164: a 400, not the validation family. */
export const INVALID_PHONE: Answer = { status: 400, body: { message: CALL_MESSAGES.invalidPhone } };

/** Calls of a ringing/talking burst end within a minute or so; a retry after that is likely to pass. */
const TOO_MANY_CALLS_RETRY_AFTER = 30;

/** One answer per business refusal of make_call. */
export const MAKE_CALL_ANSWERS: AnswerTable<MakeCallRefusal> = {
  do_not_call: { status: 422, body: { message: DO_NOT_CALL_MESSAGE } },
  assistant_not_found: ASSISTANT_NOT_FOUND,
  not_outbound: { status: 422, body: { message: CALL_MESSAGES.outboundOnly } },
  compliance_blocked: { status: 403, body: { message: CALL_MESSAGES.complianceBlocked } },
  insufficient_balance: { status: 422, body: { message: CALL_MESSAGES.insufficientBalance } },
  no_caller_line: { status: 422, body: { message: CALL_MESSAGES.noCallerLine } },
  too_many_calls: {
    status: 429,
    body: { message: CALL_MESSAGES.tooManyCalls, retry_after: TOO_MANY_CALLS_RETRY_AFTER },
    headers: { 'Retry-After': String(TOO_MANY_CALLS_RETRY_AFTER) },
  },
  dispatch_failed: { status: 502, body: { message: CALL_MESSAGES.dispatchFailed } },
};

/** An inbound call the runtime reports. */
export const INBOUND_CALL_ANSWERS: AnswerTable<InboundCallRefusal> = {
  no_assistant: { status: 404, body: { message: CALL_MESSAGES.noInboundAssistant } },
  insufficient_balance: { status: 402, body: { message: CALL_MESSAGES.insufficientBalance } },
};

/** `Invalid call transition from completed to ringing.`. */
const invalidTransition = (e: InvalidTransition): Answer => ({
  status: 409,
  body: { message: `Invalid call transition from ${e.from} to ${e.to ?? e.event}.` },
});

/** Lifecycle events from the voice runtime. */
export const CALL_EVENT_ANSWERS: AnswerTable<CallEventRefusal> = {
  call_not_found: CALL_NOT_FOUND,
  invalid_transition: invalidTransition,
};

/** The same events raised through the sandbox controls. */
export const SANDBOX_CALL_EVENT_ANSWERS: AnswerTable<CallEventRefusal> = {
  call_not_found: SANDBOX_NOT_FOUND,
  invalid_transition: invalidTransition,
};
