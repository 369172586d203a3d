import { CallStatus, isTerminal } from '../calls/call-status';

/**
 * What the chat app itself reports about a chat-app call (WhatsApp's `calls` webhooks): when the
 * customer's WhatsApp connected and when the call ended, with the chat app's own status and
 * duration. The call's state stays the voice runtime's (its SIP participant reports ringing, answer
 * and hang-up); this report sits beside it, bound to the call by the chat app's call id.
 */
export interface ChatappCallReport {
  readonly callId: number;
  /** The chat app's id of the call (`wacid.…`); bound to one call only. */
  readonly metaCallId: string;
  readonly connectAt: Date | null;
  readonly terminateAt: Date | null;
  /** Seconds, as the chat app counted them (or from connect to terminate when it gave none). */
  readonly duration: number | null;
  /** The chat app's end status, lower case (`completed`, `failed`, …). */
  readonly status: string | null;
}

export interface ChatappCallEvent {
  readonly metaCallId: string;
  readonly event: 'connect' | 'terminate';
  readonly at: Date;
  /** Terminate only. */
  readonly status: string | null;
  readonly duration: number | null;
}

/** A chat-app call of the sender to the customer that a first event could belong to. */
export interface ChatappCallCandidate {
  readonly callId: number;
  readonly status: CallStatus;
  readonly createdAt: Date;
  readonly finishedAt: Date | null;
}

/** A call the runtime already ended still takes the chat app's events this long after its end (they arrive late). */
export const CALL_REPORT_BIND_WINDOW_MS = 10 * 60_000;
/** The chat app's clock against ours: an event may name a time this much before the call was queued. */
export const CALL_REPORT_CLOCK_SKEW_MS = 60_000;

/**
 * The call a first event of an unknown chat-app call id belongs to: the newest candidate that
 * existed when the event happened and was open then, or ended within the window before it.
 * Null: none (the event is acknowledged and kept nowhere).
 */
export function callForReport(candidates: readonly ChatappCallCandidate[], at: Date): number | null {
  const t = at.getTime();
  const fits = candidates.filter(
    (c) =>
      c.createdAt.getTime() <= t + CALL_REPORT_CLOCK_SKEW_MS &&
      (!isTerminal(c.status) || c.finishedAt === null || c.finishedAt.getTime() >= t - CALL_REPORT_BIND_WINDOW_MS),
  );
  if (fits.length === 0) return null;
  return fits.reduce((newest, c) =>
    c.createdAt.getTime() > newest.createdAt.getTime() ||
    (c.createdAt.getTime() === newest.createdAt.getTime() && c.callId > newest.callId)
      ? c
      : newest,
  ).callId;
}

/**
 * What an event may change: each of connect and terminate is taken once, the first one to arrive
 * (a repeated delivery changes nothing); either may come first. A terminate without a duration
 * counts the seconds from the connect, when there was one.
 */
export function applyChatappCallEvent(
  current: ChatappCallReport,
  event: ChatappCallEvent,
): { readonly next: ChatappCallReport; readonly changed: boolean } {
  if (event.metaCallId !== current.metaCallId) return { next: current, changed: false };
  if (event.event === 'connect') {
    if (current.connectAt !== null) return { next: current, changed: false };
    const duration =
      current.terminateAt !== null && current.duration === null
        ? secondsBetween(event.at, current.terminateAt)
        : current.duration;
    return { next: { ...current, connectAt: event.at, duration }, changed: true };
  }
  if (current.terminateAt !== null) return { next: current, changed: false };
  const duration = event.duration ?? (current.connectAt === null ? null : secondsBetween(current.connectAt, event.at));
  return { next: { ...current, terminateAt: event.at, status: event.status, duration }, changed: true };
}

/** The report a first event opens on the call it was bound to. */
export function openChatappCallReport(callId: number, event: ChatappCallEvent): ChatappCallReport {
  const empty: ChatappCallReport = {
    callId,
    metaCallId: event.metaCallId,
    connectAt: null,
    terminateAt: null,
    duration: null,
    status: null,
  };
  return applyChatappCallEvent(empty, event).next;
}

const secondsBetween = (from: Date, to: Date): number =>
  Math.max(0, Math.round((to.getTime() - from.getTime()) / 1000));
