import { err, ok, Result } from '../common/result';
import { fromUnits, toUnits } from './money';

export type LedgerEntryType = 'top_up' | 'charge' | 'adjustment';
/** What a ledger entry is for; `top_up`: a paid top-up's credit. */
export type LedgerReferenceType =
  | 'chatapp_message'
  | 'conversation_message'
  | 'call'
  | 'phone_number'
  | 'top_up'
  | 'sms_message';

export interface LedgerPosting {
  readonly type: LedgerEntryType;
  /** Signed: credits positive, charges negative. */
  readonly amount: number;
  readonly balanceAfter: number;
}

export type DebitRefusal = {
  readonly code: 'insufficient_balance';
  readonly balance: number;
  readonly required: number;
};

/**
 * A charge the balance must cover: refused rather than taking the balance below
 * zero. Call-end charges and number renewals pass `mayGoNegative`.
 */
export function postCharge(balance: number, price: number, mayGoNegative = false): Result<LedgerPosting, DebitRefusal> {
  const after = toUnits(balance) - toUnits(price);
  if (after < 0 && !mayGoNegative) return err({ code: 'insufficient_balance', balance, required: price });
  return ok({ type: 'charge', amount: -fromUnits(toUnits(price)), balanceAfter: fromUnits(after) });
}

/** Operator credit (positive → top_up) or correction (negative → adjustment). */
export function postOperatorAmount(balance: number, amount: number): LedgerPosting {
  const after = toUnits(balance) + toUnits(amount);
  return {
    type: amount > 0 ? 'top_up' : 'adjustment',
    amount: fromUnits(toUnits(amount)),
    balanceAfter: fromUnits(after),
  };
}

export function canAfford(balance: number, price: number): boolean {
  return toUnits(balance) >= toUnits(price);
}
