import { err, ok, Result } from '../common/result';

/**
 * Outgoing webhook delivery: which events exist, how one attempt is judged, when
 * the next one happens and what a delivery's status becomes. Time and randomness come in as
 * arguments.
 */

/** Open enum: new event types may be added. */
export const WEBHOOK_EVENT_TYPES = [
  'post_call',
  'conversation_ended',
  'call_started',
  'call_permission_granted',
  'message_status',
  'ping',
  /** A campaign started, stopped or completed: to its assistant's webhook, as that assistant's post_call. */
  'campaign.started',
  'campaign.stopped',
  'campaign.completed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'canceled'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const DELIVERY_SOURCE_TYPES = ['assistant', 'sender', 'account'] as const;
export type DeliverySourceType = (typeof DELIVERY_SOURCE_TYPES)[number];

/** Why an attempt did not get a 2xx (the delivery's `last_error`). */
export type AttemptError = 'http_error' | 'timeout' | 'connection_failed' | 'blocked_target' | 'response_too_large';

export const MAX_DELIVERY_ATTEMPTS = 8;
/** Wait after failed attempt n (index n-1), before the ±10 % jitter. */
export const RETRY_DELAYS_SECONDS: readonly number[] = [5, 30, 120, 600, 1_800, 7_200, 21_600];
export const RETRY_JITTER = 0.1;
export const MAX_RETRY_AFTER_SECONDS = 21_600;
export const ATTEMPT_TIMEOUT_MS = 10_000;
export const RESPONSE_EXCERPT_MAX_CHARS = 1_000;
/** Deliveries and their attempts are kept this long after their last change. */
export const DELIVERY_RETENTION_DAYS = 30;

/** What one HTTP attempt came back with. */
export interface AttemptOutcome {
  /** Null when no HTTP answer was received. */
  readonly statusCode: number | null;
  readonly error: AttemptError | null;
  /** Parsed `Retry-After`, in seconds (see `retryAfterSeconds`). */
  readonly retryAfterSeconds: number | null;
}

export type AttemptVerdict =
  | { readonly kind: 'succeeded' }
  | { readonly kind: 'failed' }
  | { readonly kind: 'retry'; readonly delayMs: number };

/** Any 2xx. */
export const isSuccessStatus = (status: number | null): boolean => status !== null && status >= 200 && status < 300;

/**
 * Judges attempt `attemptNumber` (1-based, counted from the last (re)start of the schedule) of a
 * delivery allowed `maxAttempts`. `jitter` is a uniform random number in [0, 1).
 *
 * A 2xx is a success even when its body was too large to read: the receiver accepted the event,
 * and sending it again would only make a duplicate.
 */
export function judgeAttempt(
  outcome: AttemptOutcome,
  attemptNumber: number,
  maxAttempts: number,
  jitter: number,
): AttemptVerdict {
  if (isSuccessStatus(outcome.statusCode)) return { kind: 'succeeded' };
  if (outcome.statusCode === 410 || outcome.error === 'blocked_target') return { kind: 'failed' };
  if (attemptNumber >= maxAttempts) return { kind: 'failed' };
  const base = RETRY_DELAYS_SECONDS[Math.min(attemptNumber, RETRY_DELAYS_SECONDS.length) - 1] * 1_000;
  let delayMs = Math.round(base * (1 + (2 * jitter - 1) * RETRY_JITTER));
  const honoursRetryAfter = outcome.statusCode === 429 || outcome.statusCode === 503;
  if (honoursRetryAfter && outcome.retryAfterSeconds !== null) {
    delayMs = Math.max(delayMs, Math.min(outcome.retryAfterSeconds, MAX_RETRY_AFTER_SECONDS) * 1_000);
  }
  return { kind: 'retry', delayMs };
}

/**
 * `Retry-After` as seconds from `now`: delta-seconds or an HTTP date (RFC 9110, section 10.2.3). Null when
 * absent or unreadable; a date in the past is 0.
 */
export function retryAfterSeconds(header: string | undefined, now: Date): number | null {
  const value = header?.trim();
  if (!value) return null;
  if (/^\d+$/.test(value)) return Number(value);
  // IMF-fixdate (`Sun, 01 Mar 2026 10:02:00 GMT`), the form senders must use. Date.parse alone
  // would also read `-5` or `1.5` as dates, and an asctime date in the server's local zone.
  if (!/^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(value)) return null;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return null;
  return Math.max(0, Math.ceil((at - now.getTime()) / 1_000));
}

export interface SettledDelivery {
  readonly status: DeliveryStatus;
  /** Set only while the delivery stays pending. */
  readonly nextAttemptAt: Date | null;
}

/**
 * The delivery's status once an attempt is judged. A delivery canceled while its attempt was in
 * flight stays canceled, unless that attempt got through: then it is what happened (`succeeded`).
 */
export function settleAttempt(current: DeliveryStatus, verdict: AttemptVerdict, now: Date): SettledDelivery {
  if (verdict.kind === 'succeeded') return { status: 'succeeded', nextAttemptAt: null };
  if (current !== 'pending') return { status: current, nextAttemptAt: null };
  if (verdict.kind === 'failed') return { status: 'failed', nextAttemptAt: null };
  return { status: 'pending', nextAttemptAt: new Date(now.getTime() + verdict.delayMs) };
}

/** A replay restarts the schedule of any delivery that is not pending. */
export function checkReplay(status: DeliveryStatus): Result<{ readonly maxAttempts: number }, 'already_pending'> {
  return status === 'pending' ? err('already_pending') : ok({ maxAttempts: MAX_DELIVERY_ATTEMPTS });
}

/** What the delivery log keeps of a response body: null when empty, else its first 1,000 characters. */
export function responseExcerpt(body: string): string | null {
  if (body === '') return null;
  if (body.length <= RESPONSE_EXCERPT_MAX_CHARS) return body;
  // Cut on code points, so an emoji at the boundary is not split into half a surrogate pair.
  return Array.from(body).slice(0, RESPONSE_EXCERPT_MAX_CHARS).join('');
}
