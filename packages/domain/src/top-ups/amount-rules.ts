/**
 * The money a user types for paid top-ups and auto-recharge: a range and
 * whole cents, since the billing provider charges cents (the ledger itself keeps 4 decimals).
 */

export interface BillingAmountRange {
  readonly min: number;
  readonly max: number;
}

export const TOP_UP_AMOUNT_RANGE: BillingAmountRange = { min: 5, max: 10_000 };
export const AUTO_RECHARGE_THRESHOLD_RANGE: BillingAmountRange = { min: 0, max: 1_000 };
export const AUTO_RECHARGE_AMOUNT_RANGE: BillingAmountRange = TOP_UP_AMOUNT_RANGE;
export const MAX_BILLING_AMOUNT_DECIMALS = 2;

/** What an amount can break; the transport words each ("must be between 5 and 10000."). */
export type BillingAmountProblem =
  | { readonly code: 'between'; readonly min: number; readonly max: number }
  | { readonly code: 'decimals'; readonly max: number };

const CENTS = 10 ** MAX_BILLING_AMOUNT_DECIMALS;

/** Tolerant of binary fractions: 19.99 * 100 is 1998.9999999999998, yet 19.99 is whole cents. */
export function hasWholeCents(amount: number): boolean {
  return Math.abs(amount * CENTS - Math.round(amount * CENTS)) < 1e-6;
}

/**
 * Every rule `amount` breaks, range first (all of them, as the 422 lists all messages of a field).
 * A non-finite number is out of any range and says nothing about decimals.
 */
export function billingAmountProblems(amount: number, range: BillingAmountRange): BillingAmountProblem[] {
  if (!Number.isFinite(amount)) return [{ code: 'between', min: range.min, max: range.max }];
  const problems: BillingAmountProblem[] = [];
  if (amount < range.min || amount > range.max) problems.push({ code: 'between', min: range.min, max: range.max });
  if (!hasWholeCents(amount)) problems.push({ code: 'decimals', max: MAX_BILLING_AMOUNT_DECIMALS });
  return problems;
}
