import { err, ok, Result } from '../common/result';

/**
 * What an account's live event stream carries: the chat-app and call happenings a person watching
 * the account wants to see without asking again.
 */
export const ACCOUNT_EVENT_TYPES = [
  'message.received',
  'message.ai_reply',
  'message.sent',
  'message.status',
  'conversation.ended',
  'call.started',
  'call.ended',
] as const;
export type AccountEventType = (typeof ACCOUNT_EVENT_TYPES)[number];

export interface AccountEvent {
  /** The id of the event that raised it, the same on every api instance: what `Last-Event-ID` names. */
  readonly id: string;
  readonly type: AccountEventType;
  readonly userId: number;
  /** Milliseconds since the epoch the event was raised. */
  readonly at: number;
  readonly data: Readonly<Record<string, unknown>>;
}

export interface BacklogLimits {
  /** Events kept per account. */
  readonly size: number;
  /** Events older than this are no longer replayed. */
  readonly maxAgeMs: number;
}

/** The account's recent events with `event` added, oldest first, cut to the limits. */
export function appendToBacklog(
  backlog: readonly AccountEvent[],
  event: AccountEvent,
  limits: BacklogLimits,
  nowMs: number,
): AccountEvent[] {
  if (backlog.some((e) => e.id === event.id)) return [...backlog];
  const kept = [...backlog, event].filter((e) => nowMs - e.at <= limits.maxAgeMs);
  return kept.slice(Math.max(0, kept.length - limits.size));
}

/**
 * What a stream that last saw `lastEventId` missed: the events after it, or `unknown` when the id
 * is no longer (or never was) in the backlog — the reader has to reload what it shows.
 */
export function eventsAfter(
  backlog: readonly AccountEvent[],
  lastEventId: string,
): { kind: 'after'; events: AccountEvent[] } | { kind: 'unknown' } {
  const at = backlog.findIndex((e) => e.id === lastEventId);
  return at < 0 ? { kind: 'unknown' } : { kind: 'after', events: backlog.slice(at + 1) };
}

export type EventStreamRefusal = 'too_many_streams';

/** An account may hold this many streams open on one api instance. */
export function mayOpenStream(open: number, max: number): Result<void, EventStreamRefusal> {
  return open < max ? ok(undefined) : err('too_many_streams');
}

/** A `Last-Event-ID` as a client may send it: printable, short; anything else is ignored. */
export function readLastEventId(header: string | undefined): string | null {
  if (header === undefined) return null;
  const id = header.trim();
  return /^[\x21-\x7e]{1,64}$/.test(id) ? id : null;
}
