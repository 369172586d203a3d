import { CallStatus } from '../calls/call-status';
import { err, ok, Result } from '../common/result';
import { CallPermission, callPermissionStatusAt, CallPermissionTransition } from './call-permission';
import { latestOf, slidingWindowUsage, SlidingWindowUsage } from './sliding-window';

/**
 * How often a sender may ask one customer for call permission (an external rule of
 * the chat app): 1 ask in 24 hours and 2 in 7 days, counting only asks made after the last
 * chat-app call with the customer connected.
 */
export const DAILY_ASKS = { timePeriod: 'PT24H', periodMs: 24 * 60 * 60 * 1000, max: 1 } as const;
export const WEEKLY_ASKS = { timePeriod: 'P7D', periodMs: 7 * 24 * 60 * 60 * 1000, max: 2 } as const;

export interface AskUsage {
  readonly daily: SlidingWindowUsage;
  readonly weekly: SlidingWindowUsage;
}

export type AskLimitReason = 'already_granted' | 'daily_limit' | 'weekly_limit';

/** `request_limit`: `retryAt` is the earliest time a request would pass, null when waiting does not help. */
export interface AskLimitRefusal {
  readonly code: 'request_limit';
  readonly reason: AskLimitReason;
  readonly retryAt: Date | null;
}

export function askUsage(permission: CallPermission, now: Date): AskUsage {
  const asks = countedAsks(permission);
  return {
    daily: slidingWindowUsage(asks, now, DAILY_ASKS.periodMs, DAILY_ASKS.max),
    weekly: slidingWindowUsage(asks, now, WEEKLY_ASKS.periodMs, WEEKLY_ASKS.max),
  };
}

/**
 * The permission's part of the `request_limit` check, reasons in the preflight's order. `retryAt`
 * waits for every counter, not only the one reported: retrying when the daily ask frees would
 * otherwise only meet the weekly cap. A temporary grant also waits for its expiry; a permanent
 * one never frees.
 */
export function checkAskLimits(permission: CallPermission, now: Date): Result<AskUsage, AskLimitRefusal> {
  const usage = askUsage(permission, now);
  const countersFreeAt = latestOf(usage.daily.freesAt, usage.weekly.freesAt);
  if (callPermissionStatusAt(permission, now) === 'granted') {
    const retryAt = permission.isPermanent ? null : latestOf(permission.expiresAt, countersFreeAt);
    return err({ code: 'request_limit', reason: 'already_granted', retryAt });
  }
  if (usage.daily.freesAt !== null)
    return err({ code: 'request_limit', reason: 'daily_limit', retryAt: countersFreeAt });
  if (usage.weekly.freesAt !== null)
    return err({ code: 'request_limit', reason: 'weekly_limit', retryAt: countersFreeAt });
  return ok(usage);
}

/**
 * A request was sent: the permission is pending again and the ask counts. Asks that can no longer
 * count are dropped so the record stays small.
 */
export function recordPermissionRequest(
  permission: CallPermission,
  now: Date,
): Result<CallPermissionTransition, AskLimitRefusal> {
  const allowed = checkAskLimits(permission, now);
  if (!allowed.ok) return allowed;
  const stillCounting = countedAsks(permission).filter((at) => now.getTime() < at.getTime() + WEEKLY_ASKS.periodMs);
  const next: CallPermission = {
    ...permission,
    status: 'pending',
    isPermanent: false,
    expiresAt: null,
    requestedAt: now,
    asks: [...stillCounting, now],
  };
  return ok({ next, events: [] });
}

/**
 * Takes back the ask recorded at `at` (from `before`) whose request template never went out: it
 * stops counting, and a permission still pending from that ask is again what it was before. A
 * permission that moved on meanwhile (the customer answered) keeps its state.
 */
export function withdrawPermissionRequest(
  permission: CallPermission,
  before: CallPermission,
  at: Date,
): CallPermission {
  const asks = permission.asks.filter((t) => t.getTime() !== at.getTime());
  const stillThisAsk = permission.status === 'pending' && permission.requestedAt?.getTime() === at.getTime();
  if (!stillThisAsk) return { ...permission, asks };
  return {
    ...permission,
    asks,
    status: before.status,
    isPermanent: before.isPermanent,
    expiresAt: before.expiresAt,
    requestedAt: before.requestedAt,
  };
}

/**
 * A chat-app call with the customer connected (reached `in-progress`) at `connectedAt`: asks made
 * until then stop counting. Keyed by the connection time rather than "clear the list", so a late or
 * repeated report of the same call never forgets an ask made after it.
 */
export function resetAskCounters(permission: CallPermission, connectedAt: Date): CallPermission {
  const countedAfter = latestOf(permission.asksCountedAfter, connectedAt);
  const next: CallPermission = { ...permission, asksCountedAfter: countedAfter };
  return { ...next, asks: countedAsks(next) };
}

/**
 * A chat-app call with the customer moved to `status` at `at`: reaching
 * `in-progress` means it connected, which resets the asks; any other move changes nothing.
 */
export function askCountersOnCallStatus(permission: CallPermission, status: CallStatus, at: Date): CallPermission {
  return status === 'in-progress' ? resetAskCounters(permission, at) : permission;
}

function countedAsks(permission: CallPermission): readonly Date[] {
  const after = permission.asksCountedAfter;
  return after === null ? permission.asks : permission.asks.filter((at) => at.getTime() > after.getTime());
}
