import { EventStreamRefusal } from '@voiceplane/domain';
import { AnswerTable } from '../../pipeline/answers';

/** Seconds a client held back by the stream limit waits before it tries again. */
const RETRY_AFTER_S = 30;

/** The account event stream: the `{message}` family, a 429 shaped like the general rate limit's. */
export const EVENT_STREAM_ANSWERS: AnswerTable<EventStreamRefusal> = {
  too_many_streams: {
    status: 429,
    body: { message: 'Too many open event streams.', retry_after: RETRY_AFTER_S },
    headers: { 'Retry-After': String(RETRY_AFTER_S) },
  },
};
