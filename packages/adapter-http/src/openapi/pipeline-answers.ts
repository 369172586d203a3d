import { authOf, type RouteDoc } from './route-doc';

/** Error bodies by status. */
export type ErrorAnswers = Readonly<Record<number, readonly object[]>>;

const UNAUTHORIZED = { error: 'Unauthorized' };
const API_KEY_ONLY = { error: 'This endpoint requires an API key.' };
const TOO_MANY_ATTEMPTS = { message: 'Too Many Attempts.', retry_after: 42 };
const CHATAPP_TOO_MANY = { success: false, error: 'Too many requests.', retry_after: 1 };
const MALFORMED_JSON = { message: 'Malformed JSON body.' };
const INVALID_IDEMPOTENCY_KEY = { message: 'Invalid Idempotency-Key header.' };
const IDEMPOTENCY_KEY_IN_USE = {
  message: 'A request with this Idempotency-Key is still being processed.',
  error: 'idempotency_key_in_use',
};
const IDEMPOTENCY_ANSWER_LOST = {
  message:
    'The request with this Idempotency-Key was carried out, but its answer was lost. It will not be carried out again.',
  error: 'idempotency_answer_lost',
};
const IDEMPOTENCY_KEY_REUSED = {
  message: 'This Idempotency-Key was already used with a different request body.',
  error: 'idempotency_key_reused',
};

/** POST routes of these prefixes honour an `Idempotency-Key` header (the idempotency middleware of the http app). */
export function acceptsIdempotencyKey(route: RouteDoc): boolean {
  return route.method === 'post' && /^\/api\/(user|admin|hooks)\//.test(route.path);
}

/**
 * What the pipeline answers before a route's handler runs: the token check, the general rate limit of
 * authenticated `/api/user` routes, the body reader and the Idempotency-Key check.
 */
export function pipelineAnswers(route: RouteDoc): ErrorAnswers {
  const answers: Record<number, object[]> = {};
  const add = (status: number, body: object) => (answers[status] ??= []).push(body);
  const auth = authOf(route);
  if (auth !== 'none' && auth !== 'hook') add(401, UNAUTHORIZED);
  if (auth === 'api_key') add(401, API_KEY_ONLY);
  if (auth !== 'none' && route.path.startsWith('/api/user/'))
    add(429, route.path.startsWith('/api/user/chatapp/') ? CHATAPP_TOO_MANY : TOO_MANY_ATTEMPTS);
  if (route.body) add(400, MALFORMED_JSON);
  if (acceptsIdempotencyKey(route)) {
    add(400, INVALID_IDEMPOTENCY_KEY);
    add(409, IDEMPOTENCY_KEY_IN_USE);
    add(409, IDEMPOTENCY_ANSWER_LOST);
    add(422, IDEMPOTENCY_KEY_REUSED);
  }
  return answers;
}
