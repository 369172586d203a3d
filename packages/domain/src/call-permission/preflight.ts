import { callPermissionStatusAt, CallPermissionStatus, canCallAt } from './call-permission';
import {
  ChatappCallFacts,
  ChatappCallRefusal,
  CONTACT_CALL_ATTEMPTS,
  contactAttemptUsage,
  failingChatappCallChecks,
} from './chatapp-call-decision';
import { askUsage, DAILY_ASKS, WEEKLY_ASKS } from './permission-asks';
import {
  customerSessionOpen,
  decidePermissionRequest,
  PermissionRequestFacts,
  PermissionRequestReason,
  permissionRequestReason,
} from './permission-request';
import { SlidingWindowUsage } from './sliding-window';
import { QuotaUsage, quotaStanding } from './user-quotas';

/** The preflight's word for a refused call: the refusal's code. */
export type StartCallReason = ChatappCallRefusal['code'];

/** Preflight order, with voiceplane's added `insufficient_balance` after `contact_rate_limit` (the route checks balance earlier). */
export const START_CALL_REASON_ORDER: readonly StartCallReason[] = [
  'feature_disabled',
  'voice_disabled',
  'calling_not_enabled',
  'sender_offline',
  'region_not_supported',
  'no_assistant',
  'assistant_blocked',
  'no_permission',
  'permission_expired',
  'concurrent_limit',
  'contact_rate_limit',
  'insufficient_balance',
];

export interface PreflightLimit {
  /** ISO 8601 duration (`PT24H`, `P7D`, `PT5M`). */
  readonly timePeriod: string;
  readonly maxAllowed: number;
  readonly currentUsage: number;
  /** When the oldest counted use leaves the window; null when nothing counts. */
  readonly limitExpirationTime: Date | null;
}

export interface PreflightAction<R extends string> {
  readonly actionName: 'send_call_permission_request' | 'start_call';
  readonly canPerform: boolean;
  /** The first failing check, ending with the user's quota (voiceplane's addition); null when the action would pass. */
  readonly reason: R | 'quota_exhausted' | null;
  /** When the blocking limit frees; null when waiting does not help or nothing blocks. */
  readonly nextAllowedAt: Date | null;
  readonly limits: readonly PreflightLimit[];
}

export type VoicePreflightFacts = PermissionRequestFacts &
  ChatappCallFacts & {
    /** The user's counts in the current fixed windows of the request route's quotas. */
    readonly requestQuota: readonly QuotaUsage[];
    /** The same for the call route's quotas. */
    readonly callQuota: readonly QuotaUsage[];
  };

export interface CallPermissionReadout {
  readonly status: CallPermissionStatus;
  readonly isPermanent: boolean;
  readonly canCall: boolean;
  /** A request would pass every check now: the request action's `canPerform`. */
  readonly canRequest: boolean;
  readonly sessionOpen: boolean;
  readonly expiresAt: Date | null;
  readonly requestedAt: Date | null;
  readonly respondedAt: Date | null;
  readonly actions: readonly [PreflightAction<PermissionRequestReason>, PreflightAction<StartCallReason>];
}

/**
 * The permission readout of `GET …/voice/permission`: the permission as read
 * now, and for each of the two voice routes whether it would pass, the first reason it would not
 * and when waiting would help.
 */
export function readCallPermission(facts: VoicePreflightFacts, now: Date): CallPermissionReadout {
  const permission = facts.permission;
  const request = requestAction(facts, now);
  return {
    status: callPermissionStatusAt(permission, now),
    isPermanent: permission.isPermanent,
    canCall: canCallAt(permission, now),
    canRequest: request.canPerform,
    sessionOpen: customerSessionOpen(facts.lastCustomerMessageAt, now),
    expiresAt: permission.expiresAt,
    requestedAt: permission.requestedAt,
    respondedAt: permission.respondedAt,
    actions: [request, startCallAction(facts, now)],
  };
}

function requestAction(facts: VoicePreflightFacts, now: Date): PreflightAction<PermissionRequestReason> {
  const usage = askUsage(facts.permission, now);
  const limits = [limitOf(DAILY_ASKS.timePeriod, usage.daily), limitOf(WEEKLY_ASKS.timePeriod, usage.weekly)];
  const decision = decidePermissionRequest(facts, now);
  if (!decision.ok) {
    const retryAt = decision.error.code === 'request_limit' ? decision.error.retryAt : null;
    return blocked('send_call_permission_request', permissionRequestReason(decision.error), retryAt, limits);
  }
  return afterQuota('send_call_permission_request', facts.requestQuota, now, limits);
}

function startCallAction(facts: VoicePreflightFacts, now: Date): PreflightAction<StartCallReason> {
  const limits = [limitOf(CONTACT_CALL_ATTEMPTS.timePeriod, contactAttemptUsage(facts, now))];
  const failing = [...failingChatappCallChecks(facts, now)];
  failing.sort((a, b) => START_CALL_REASON_ORDER.indexOf(a.code) - START_CALL_REASON_ORDER.indexOf(b.code));
  const first = failing[0];
  if (first !== undefined) {
    const nextAllowedAt = first.code === 'contact_rate_limit' ? first.retryAt : null;
    return blocked('start_call', first.code, nextAllowedAt, limits);
  }
  return afterQuota('start_call', facts.callQuota, now, limits);
}

function afterQuota<R extends string>(
  actionName: PreflightAction<R>['actionName'],
  quota: readonly QuotaUsage[],
  now: Date,
  limits: readonly PreflightLimit[],
): PreflightAction<R> {
  const standing = quotaStanding(quota, now);
  if (standing.exhausted) return blocked<R>(actionName, 'quota_exhausted', standing.nextAllowedAt, limits);
  return { actionName, canPerform: true, reason: null, nextAllowedAt: null, limits };
}

function blocked<R extends string>(
  actionName: PreflightAction<R>['actionName'],
  reason: R | 'quota_exhausted',
  nextAllowedAt: Date | null,
  limits: readonly PreflightLimit[],
): PreflightAction<R> {
  return { actionName, canPerform: false, reason, nextAllowedAt, limits };
}

function limitOf(timePeriod: string, usage: SlidingWindowUsage): PreflightLimit {
  return { timePeriod, maxAllowed: usage.max, currentUsage: usage.used, limitExpirationTime: usage.oldestLeavesAt };
}
