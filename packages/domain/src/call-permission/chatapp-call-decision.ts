import { err, ok, Result } from '../shared/result';
import { canAfford } from '../billing/ledger';
import { CallStatus } from '../calls/call-status';
import { CallPermission, callPermissionStatusAt } from './call-permission';
import { senderRegionRefusesCalls } from './sender-region';
import { slidingWindowUsage, SlidingWindowUsage } from './sliding-window';

/** Attempts to one contact (sender + customer): 3 calls queued in 5 minutes. */
export const CONTACT_CALL_ATTEMPTS = { timePeriod: 'PT5M', periodMs: 5 * 60 * 1000, max: 3 } as const;
/** Chat-app calls of one sender occupying a line at once. */
export const MAX_ACTIVE_SENDER_CALLS = 5;
/** `retry_after` of `CONCURRENT_LIMIT`: when a line frees is unknowable, so a fixed pause. */
export const CONCURRENT_LIMIT_RETRY_AFTER_SECONDS = 30;

const LINE_OCCUPYING: readonly CallStatus[] = ['queued', 'ringing', 'in-progress'];

/** A call counts against its sender's concurrency until it ends; any terminal status frees the line. */
export const occupiesSenderLine = (status: CallStatus): boolean => LINE_OCCUPYING.includes(status);

/** What the checks after `INVALID_PHONE` need to know; the application gathers it. */
export interface ChatappCallFacts {
  /** Plan `chatapp_calling_enabled`. */
  readonly planCallingEnabled: boolean;
  /** Sender `calling_enabled`. */
  readonly senderCallingEnabled: boolean;
  /**
   * The chat app lets the sender's number place calls (a real chat app: calling is on for the
   * number and voiceplane holds its calling line); always true where the chat app needs nothing (the sandbox).
   */
  readonly senderCallingLineReady: boolean;
  readonly senderOnline: boolean;
  readonly senderCountry: string | null;
  readonly assistant: 'none' | 'compliance_blocked' | 'available';
  readonly permission: CallPermission;
  readonly balance: number;
  /** One minute of a chat-app call: the least balance that may place one. */
  readonly minutePrice: number;
  /** Statuses of the sender's chat-app calls not yet ended (or all recent ones: only line-occupying ones count). */
  readonly senderCallStatuses: readonly CallStatus[];
  /** When each chat-app call to this contact was queued (recent ones suffice: older than 5 minutes never count). */
  readonly contactAttempts: readonly Date[];
}

export type ChatappCallRefusal =
  | { readonly code: 'FEATURE_DISABLED' }
  | { readonly code: 'VOICE_DISABLED' }
  | { readonly code: 'CALLING_NOT_ENABLED' }
  | { readonly code: 'SENDER_OFFLINE' }
  | { readonly code: 'REGION_NOT_SUPPORTED'; readonly country: string }
  | { readonly code: 'NO_ASSISTANT' }
  | { readonly code: 'ASSISTANT_BLOCKED' }
  /** `reason` picks the text: never granted (or withdrawn) versus a grant that ran out. */
  | { readonly code: 'NO_PERMISSION'; readonly reason: 'no_permission' | 'permission_expired' }
  | { readonly code: 'INSUFFICIENT_BALANCE' }
  | { readonly code: 'CONCURRENT_LIMIT'; readonly retryAfterSeconds: number }
  | { readonly code: 'CONTACT_RATE_LIMIT'; readonly retryAfterSeconds: number; readonly retryAt: Date };

export type ChatappCallCode = ChatappCallRefusal['code'];

/** The route's check order. */
export const CHATAPP_CALL_CHECK_ORDER: readonly ChatappCallCode[] = [
  'FEATURE_DISABLED', 'VOICE_DISABLED', 'CALLING_NOT_ENABLED', 'SENDER_OFFLINE', 'REGION_NOT_SUPPORTED', 'NO_ASSISTANT', 'ASSISTANT_BLOCKED',
  'NO_PERMISSION', 'INSUFFICIENT_BALANCE', 'CONCURRENT_LIMIT', 'CONTACT_RATE_LIMIT',
];

export function contactAttemptUsage(facts: Pick<ChatappCallFacts, 'contactAttempts'>, now: Date): SlidingWindowUsage {
  return slidingWindowUsage(facts.contactAttempts, now, CONTACT_CALL_ATTEMPTS.periodMs, CONTACT_CALL_ATTEMPTS.max);
}

export const activeSenderCalls = (statuses: readonly CallStatus[]): number => statuses.filter(occupiesSenderLine).length;

/**
 * Every check from `FEATURE_DISABLED` on that fails now, in the route's order. The route
 * answers the first; the preflight orders them its own way.
 */
export function failingChatappCallChecks(facts: ChatappCallFacts, now: Date): readonly ChatappCallRefusal[] {
  const failing: ChatappCallRefusal[] = [];
  if (!facts.planCallingEnabled) failing.push({ code: 'FEATURE_DISABLED' });
  if (!facts.senderCallingEnabled) failing.push({ code: 'VOICE_DISABLED' });
  // VOICE_DISABLED is the user's switch on the sender; this is the chat app's side of it.
  if (!facts.senderCallingLineReady) failing.push({ code: 'CALLING_NOT_ENABLED' });
  if (!facts.senderOnline) failing.push({ code: 'SENDER_OFFLINE' });
  if (facts.senderCountry !== null && senderRegionRefusesCalls(facts.senderCountry)) {
    failing.push({ code: 'REGION_NOT_SUPPORTED', country: facts.senderCountry.toUpperCase() });
  }
  if (facts.assistant === 'none') failing.push({ code: 'NO_ASSISTANT' });
  if (facts.assistant === 'compliance_blocked') failing.push({ code: 'ASSISTANT_BLOCKED' });
  const permission = callPermissionStatusAt(facts.permission, now);
  if (permission !== 'granted') failing.push({ code: 'NO_PERMISSION', reason: permission === 'expired' ? 'permission_expired' : 'no_permission' });
  if (!canAfford(facts.balance, facts.minutePrice)) failing.push({ code: 'INSUFFICIENT_BALANCE' });
  if (activeSenderCalls(facts.senderCallStatuses) >= MAX_ACTIVE_SENDER_CALLS) {
    failing.push({ code: 'CONCURRENT_LIMIT', retryAfterSeconds: CONCURRENT_LIMIT_RETRY_AFTER_SECONDS });
  }
  const attempts = contactAttemptUsage(facts, now);
  if (attempts.freesAt !== null) {
    const retryAfterSeconds = Math.max(1, Math.ceil((attempts.freesAt.getTime() - now.getTime()) / 1000));
    failing.push({ code: 'CONTACT_RATE_LIMIT', retryAfterSeconds, retryAt: attempts.freesAt });
  }
  return failing;
}

/** The chat-app call checks from `FEATURE_DISABLED` to `CONTACT_RATE_LIMIT`: the first failing check; ok when the call may be queued. */
export function decideChatappCall(facts: ChatappCallFacts, now: Date): Result<null, ChatappCallRefusal> {
  const first = failingChatappCallChecks(facts, now)[0];
  return first === undefined ? ok(null) : err(first);
}
