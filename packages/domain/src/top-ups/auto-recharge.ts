import { addFieldProblem, FieldProblems, hasFieldProblems } from '../common/field-problems';
import { err, ok, Result } from '../common/result';
import {
  BillingAmountProblem,
  billingAmountProblems,
  AUTO_RECHARGE_AMOUNT_RANGE,
  AUTO_RECHARGE_THRESHOLD_RANGE,
} from './amount-rules';

/** An account's auto-recharge: what the user set, and how its attempts went. */

export interface AutoRechargeSettings {
  readonly enabled: boolean;
  /** A charge leaving the balance below this starts a recharge. */
  readonly threshold: number;
  /** What each recharge tops up. */
  readonly amount: number;
}

export interface AutoRechargeState {
  /** Failures since the last success or since the user last enabled it. */
  readonly consecutiveFailures: number;
  readonly lastAttemptAt: Date | null;
  /** The failure reason of the last attempt; null after a success. */
  readonly lastError: string | null;
  /** The `auto` top-up being charged; null when none is (never two per account). */
  readonly inFlightTopUpId: number | null;
}

export interface AutoRecharge {
  readonly userId: number;
  readonly settings: AutoRechargeSettings;
  readonly state: AutoRechargeState;
}

export const DEFAULT_AUTO_RECHARGE_SETTINGS: AutoRechargeSettings = { enabled: false, threshold: 5, amount: 25 };
export const INITIAL_AUTO_RECHARGE_STATE: AutoRechargeState = {
  consecutiveFailures: 0,
  lastAttemptAt: null,
  lastError: null,
  inFlightTopUpId: null,
};

export function newAutoRecharge(userId: number): AutoRecharge {
  return { userId, settings: DEFAULT_AUTO_RECHARGE_SETTINGS, state: INITIAL_AUTO_RECHARGE_STATE };
}

/** A `PUT`: only the sent fields. */
export type AutoRechargeChanges = { -readonly [K in keyof AutoRechargeSettings]?: AutoRechargeSettings[K] };

/** Keyed by wire field; `payment_method_required` sits on `enabled` (its message). */
export type AutoRechargeProblem = BillingAmountProblem | 'payment_method_required';

/**
 * Applies a settings change. Enabling needs a saved payment method, since every recharge is
 * charged off-session. Turning it back on (false → true) starts the failure count afresh, or a
 * single decline would switch off again an account the user just repaired.
 */
export function changeAutoRecharge(
  current: AutoRecharge,
  changes: AutoRechargeChanges,
  paymentMethodReady: boolean,
): Result<AutoRecharge, FieldProblems<AutoRechargeProblem>> {
  const problems: FieldProblems<AutoRechargeProblem> = {};
  if (changes.threshold !== undefined) {
    billingAmountProblems(changes.threshold, AUTO_RECHARGE_THRESHOLD_RANGE).forEach((p) =>
      addFieldProblem(problems, 'threshold', p),
    );
  }
  if (changes.amount !== undefined) {
    billingAmountProblems(changes.amount, AUTO_RECHARGE_AMOUNT_RANGE).forEach((p) =>
      addFieldProblem(problems, 'amount', p),
    );
  }
  if (changes.enabled === true && !paymentMethodReady) addFieldProblem(problems, 'enabled', 'payment_method_required');
  if (hasFieldProblems(problems)) return err(problems);
  const settings: AutoRechargeSettings = {
    enabled: changes.enabled ?? current.settings.enabled,
    threshold: changes.threshold ?? current.settings.threshold,
    amount: changes.amount ?? current.settings.amount,
  };
  const reenabled = !current.settings.enabled && settings.enabled;
  const state = reenabled ? { ...current.state, consecutiveFailures: 0 } : current.state;
  return ok({ ...current, settings, state });
}
