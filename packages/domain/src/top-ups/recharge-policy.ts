import { toUnits } from '../billing/money';
import { err, ok, Result } from '../common/result';
import { AutoRecharge, AutoRechargeSettings, AutoRechargeState } from './auto-recharge';
import { TopUp } from './top-up';

/**
 * When auto-recharge charges the saved card, and what each attempt's outcome does to it
 *. Every function runs under the account's balance lock, so "one in flight" is
 * a plain check of the state: the first charge that qualifies marks the attempt, the others see it.
 */

export const RECHARGE_MIN_INTERVAL_MS = 10 * 60 * 1_000;
export const MAX_CONSECUTIVE_RECHARGE_FAILURES = 3;

export type RechargeSkip =
  | 'disabled'
  /** The balance did not go down: a credit, or a charge of 0. */
  | 'not_a_charge'
  | 'not_below_threshold'
  | 'in_flight'
  /** The last attempt started less than 10 minutes ago. */
  | 'too_soon';

export type RechargeDecision =
  | { readonly recharge: true; readonly amount: number }
  | { readonly recharge: false; readonly reason: RechargeSkip };

/**
 * Whether the charge that moved the balance from `balanceBefore` to `balanceAfter` starts a
 * recharge. Any charge that leaves the balance below the threshold qualifies, not only the one
 * that crossed it: after a declined attempt the balance stays below, and the next charge 10
 * minutes later must be able to try again (that is how three declines can happen in a row).
 */
export function shouldRecharge(
  settings: AutoRechargeSettings,
  state: AutoRechargeState,
  balanceBefore: number,
  balanceAfter: number,
  now: Date,
): RechargeDecision {
  const skip = (reason: RechargeSkip): RechargeDecision => ({ recharge: false, reason });
  if (!settings.enabled) return skip('disabled');
  if (toUnits(balanceAfter) >= toUnits(balanceBefore)) return skip('not_a_charge');
  if (toUnits(balanceAfter) >= toUnits(settings.threshold)) return skip('not_below_threshold');
  if (state.inFlightTopUpId !== null) return skip('in_flight');
  if (state.lastAttemptAt !== null && now.getTime() - state.lastAttemptAt.getTime() < RECHARGE_MIN_INTERVAL_MS)
    return skip('too_soon');
  return { recharge: true, amount: settings.amount };
}

export const AUTO_RECHARGE_EVENTS = ['auto_recharge.started', 'auto_recharge.disabled'] as const;
export type AutoRechargeEventName = (typeof AUTO_RECHARGE_EVENTS)[number];

export interface AutoRechargeEvent {
  readonly name: AutoRechargeEventName;
  readonly userId: number;
  /** `started`: the top-up to charge off-session; `disabled`: the attempt whose failure was the last straw. */
  readonly topUpId: number;
}

export interface RechargeTransition {
  readonly next: AutoRecharge;
  readonly events: AutoRechargeEvent[];
}

/**
 * Marks `topUp` (the new pending `auto` top-up) as the attempt in flight. Its `started` event is
 * what charges the card, after the lock is released: the triggering charge never waits for it.
 */
export function beginRecharge(
  recharge: AutoRecharge,
  topUp: TopUp,
  now: Date,
): Result<RechargeTransition, 'in_flight'> {
  if (recharge.state.inFlightTopUpId !== null) return err('in_flight');
  return ok({
    next: { ...recharge, state: { ...recharge.state, inFlightTopUpId: topUp.id, lastAttemptAt: now } },
    events: [{ name: 'auto_recharge.started', userId: recharge.userId, topUpId: topUp.id }],
  });
}

export type RechargeSettleRefusal = 'not_in_flight' | 'still_pending';

/**
 * Applies the outcome of the attempt in flight, given its settled top-up: a success clears the
 * failure count and error; a failure (or an expiry) counts, records why, and the third in a row
 * turns auto-recharge off. The outcome of any other top-up changes nothing.
 */
export function settleRecharge(
  recharge: AutoRecharge,
  topUp: TopUp,
): Result<RechargeTransition, RechargeSettleRefusal> {
  if (topUp.id !== recharge.state.inFlightTopUpId) return err('not_in_flight');
  if (topUp.status === 'pending') return err('still_pending');
  if (topUp.status === 'succeeded') {
    return ok({
      next: {
        ...recharge,
        state: { ...recharge.state, inFlightTopUpId: null, consecutiveFailures: 0, lastError: null },
      },
      events: [],
    });
  }
  const consecutiveFailures = recharge.state.consecutiveFailures + 1;
  const state: AutoRechargeState = {
    ...recharge.state,
    inFlightTopUpId: null,
    consecutiveFailures,
    lastError: topUp.failureReason ?? topUp.status,
  };
  const exhausted = consecutiveFailures >= MAX_CONSECUTIVE_RECHARGE_FAILURES && recharge.settings.enabled;
  if (!exhausted) return ok({ next: { ...recharge, state }, events: [] });
  return ok({
    next: { ...recharge, settings: { ...recharge.settings, enabled: false }, state },
    events: [{ name: 'auto_recharge.disabled', userId: recharge.userId, topUpId: topUp.id }],
  });
}

/**
 * An `auto` top-up settled `failed` on a lost answer turned out to have succeeded (the
 * reconciliation found the payment taken): the failure it counted is taken back, or a charge that
 * went through would bring auto-recharge closer to switching itself off. When it was the latest
 * attempt it counts as that attempt's success (count and error clear, as `settleRecharge` does);
 * after a later attempt only its own failure is taken off, since the later outcomes stand.
 * An auto-recharge already switched off stays off: charging again is the user's call.
 */
export function undoRechargeFailure(recharge: AutoRecharge, topUp: TopUp): Result<RechargeTransition, 'not_a_success'> {
  if (topUp.trigger !== 'auto' || topUp.status !== 'succeeded') return err('not_a_success');
  const { state } = recharge;
  const latest =
    state.inFlightTopUpId === null &&
    (state.lastAttemptAt === null || state.lastAttemptAt.getTime() <= topUp.createdAt.getTime());
  const consecutiveFailures = latest ? 0 : Math.max(0, state.consecutiveFailures - 1);
  const lastError = consecutiveFailures === 0 ? null : state.lastError;
  return ok({ next: { ...recharge, state: { ...state, consecutiveFailures, lastError } }, events: [] });
}
