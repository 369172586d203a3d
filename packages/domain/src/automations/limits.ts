/**
 * Execution limits: a test or retry runs inside the request for at most 60 s,
 * any other run for at most 600 s of execution (paused time does not count); a sync webhook's
 * caller waits at most 10 s for the reply.
 */
export const IN_REQUEST_LIMIT_MS = 60_000;
export const BACKGROUND_LIMIT_MS = 600_000;
export const SYNC_REPLY_WAIT_MS = 10_000;
