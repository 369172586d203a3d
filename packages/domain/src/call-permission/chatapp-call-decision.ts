import { err, ok, Result } from '../common/result';
import { canAfford } from '../billing/ledger';
import { CallStatus } from '../calls/call-status';
import { CallPermission, callPermissionStatusAt } from './call-permission';
import { senderRegionRefusesCalls } from './sender-region';
import { slidingWindowUsage, SlidingWindowUsage } from './sliding-window';

/** Attempts to one contact (sender + customer): 3 calls queued in 5 minutes. */
export const CONTACT_CALL_ATTEMPTS = { timePeriod: 'PT5M', periodMs: 5 * 60 * 1000, max: 3 } as const;
/** Chat-app calls of one sender occupying a line at once. */
export const MAX_ACTIVE_SENDER_CALLS = 5;
/** `retry_after` of `concurrent_limit`: when a line frees is unknowable, so a fixed pause. */
export const CONCURRENT_LIMIT_RETRY_AFTER_SECONDS = 30;

const LINE_OCCUPYING: readonly CallStatus[] = ['queued', 'ringing', 'in-progress'];

/** A call counts against its sender's concurrency until it ends; any terminal status frees the line. */
export const occupiesSenderLine = (status: CallStatus): boolean => LINE_OCCUPYING.includes(status);

/** What the checks after `invalid_phone` need to know; the application gathers it. */
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
  | { readonly code: 'feature_disabled' }
  | { readonly code: 'voice_disabled' }
  | { readonly code: 'calling_not_enabled' }
  | { readonly code: 'sender_offline' }
  | { readonly code: 'region_not_supported'; readonly country: string }
  | { readonly code: 'no_assistant' }
  | { readonly code: 'assistant_blocked' }
  /** Never granted (or withdrawn); the wire folds it with `permission_expired` into one code with two texts. */
  | { readonly code: 'no_permission' }
  /** A grant that ran out. */
  | { readonly code: 'permission_expired' }
  | { readonly code: 'insufficient_balance' }
  | { readonly code: 'concurrent_limit'; readonly retryAfterSeconds: number }
  | { readonly code: 'contact_rate_limit'; readonly retryAfterSeconds: number; readonly retryAt: Date };

export type ChatappCallCode = ChatappCallRefusal['code'];

/** The route's check order (`no_permission` and `permission_expired` are one check). */
export const CHATAPP_CALL_CHECK_ORDER: readonly ChatappCallCode[] = [
  'feature_disabled',
  'voice_disabled',
  'calling_not_enabled',
  'sender_offline',
  'region_not_supported',
  'no_assistant',
  'assistant_blocked',
  'no_permission',
  'permission_expired',
  'insufficient_balance',
  'concurrent_limit',
  'contact_rate_limit',
];

export function contactAttemptUsage(facts: Pick<ChatappCallFacts, 'contactAttempts'>, now: Date): SlidingWindowUsage {
  return slidingWindowUsage(facts.contactAttempts, now, CONTACT_CALL_ATTEMPTS.periodMs, CONTACT_CALL_ATTEMPTS.max);
}

export const activeSenderCalls = (statuses: readonly CallStatus[]): number =>
  statuses.filter(occupiesSenderLine).length;

/**
 * Every check from `feature_disabled` on that fails now, in the route's order. The route
 * answers the first; the preflight orders them its own way.
 */
export function failingChatappCallChecks(facts: ChatappCallFacts, now: Date): readonly ChatappCallRefusal[] {
  const failing: ChatappCallRefusal[] = [];
  if (!facts.planCallingEnabled) failing.push({ code: 'feature_disabled' });
  if (!facts.senderCallingEnabled) failing.push({ code: 'voice_disabled' });
  // voice_disabled is the user's switch on the sender; this is the chat app's side of it.
  if (!facts.senderCallingLineReady) failing.push({ code: 'calling_not_enabled' });
  if (!facts.senderOnline) failing.push({ code: 'sender_offline' });
  if (facts.senderCountry !== null && senderRegionRefusesCalls(facts.senderCountry)) {
    failing.push({ code: 'region_not_supported', country: facts.senderCountry.toUpperCase() });
  }
  if (facts.assistant === 'none') failing.push({ code: 'no_assistant' });
  if (facts.assistant === 'compliance_blocked') failing.push({ code: 'assistant_blocked' });
  const permission = callPermissionStatusAt(facts.permission, now);
  if (permission !== 'granted')
    failing.push({ code: permission === 'expired' ? 'permission_expired' : 'no_permission' });
  if (!canAfford(facts.balance, facts.minutePrice)) failing.push({ code: 'insufficient_balance' });
  if (activeSenderCalls(facts.senderCallStatuses) >= MAX_ACTIVE_SENDER_CALLS) {
    failing.push({ code: 'concurrent_limit', retryAfterSeconds: CONCURRENT_LIMIT_RETRY_AFTER_SECONDS });
  }
  const attempts = contactAttemptUsage(facts, now);
  if (attempts.freesAt !== null) {
    const retryAfterSeconds = Math.max(1, Math.ceil((attempts.freesAt.getTime() - now.getTime()) / 1000));
    failing.push({ code: 'contact_rate_limit', retryAfterSeconds, retryAt: attempts.freesAt });
  }
  return failing;
}

/** The chat-app call checks from `feature_disabled` to `contact_rate_limit`: the first failing check; ok when the call may be queued. */
export function decideChatappCall(facts: ChatappCallFacts, now: Date): Result<null, ChatappCallRefusal> {
  const first = failingChatappCallChecks(facts, now)[0];
  return first === undefined ? ok(null) : err(first);
}
