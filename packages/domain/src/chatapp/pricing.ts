import { canAfford } from '../billing/ledger';
import { err, ok, Result } from '../common/result';

/** Chat-app message prices (configuration, these are the defaults). */
export interface ChatappPrices {
  readonly templateMessage: number;
  readonly freeformMessage: number;
}

export const DEFAULT_CHATAPP_PRICES: ChatappPrices = { templateMessage: 0.05, freeformMessage: 0.01 };

/** What a send will cost once the provider accepts it. */
export type SendCharge =
  /** Covered by the plan's monthly `included_template_messages`: no ledger charge. */
  { readonly source: 'allowance'; readonly amount: 0 } | { readonly source: 'balance'; readonly amount: number };

export type InsufficientBalance = {
  readonly code: 'insufficient_balance';
  readonly balance: number;
  readonly required: number;
};

/** Template sends use the allowance first; only without allowance must the balance cover the price. */
export function priceTemplateSend(
  allowanceRemaining: number,
  balance: number,
  prices: ChatappPrices,
): Result<SendCharge, InsufficientBalance> {
  if (allowanceRemaining > 0) return ok({ source: 'allowance', amount: 0 });
  return chargeBalance(balance, prices.templateMessage);
}

/** Freeform sends and AI replies are always charged to the balance. */
export function priceFreeformSend(balance: number, prices: ChatappPrices): Result<SendCharge, InsufficientBalance> {
  return chargeBalance(balance, prices.freeformMessage);
}

function chargeBalance(balance: number, price: number): Result<SendCharge, InsufficientBalance> {
  return canAfford(balance, price)
    ? ok({ source: 'balance', amount: price })
    : err({ code: 'insufficient_balance', balance, required: price });
}

/** The allowance period: a calendar month in UTC, reset on the 1st at 00:00. */
export interface AllowancePeriod {
  readonly startsAt: Date;
  /** `allowance_resets_at`. */
  readonly resetsAt: Date;
}

export function allowancePeriod(now: Date): AllowancePeriod {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  return { startsAt: new Date(Date.UTC(year, month, 1)), resetsAt: new Date(Date.UTC(year, month + 1, 1)) };
}

/** `included_template_messages_remaining`: never below zero, even after the plan was lowered mid-month. */
export function allowanceRemaining(includedPerMonth: number, usedThisPeriod: number): number {
  return Math.max(0, includedPerMonth - usedThisPeriod);
}
