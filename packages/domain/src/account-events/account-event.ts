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
  /** Events kept per account (the stream's backlog is stored by the application's `AccountEventStore`). */
  readonly size: number;
  /** Events older than this are no longer replayed. */
  readonly maxAgeMs: number;
}

export type EventStreamRefusal = 'too_many_streams';

/** A `Last-Event-ID` as a client may send it: printable, short; anything else is ignored. */
export function readLastEventId(header: string | undefined): string | null {
  if (header === undefined) return null;
  const id = header.trim();
  return /^[\x21-\x7e]{1,64}$/.test(id) ? id : null;
}
