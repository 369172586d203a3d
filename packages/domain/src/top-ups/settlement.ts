import { fromUnits, toUnits } from '../billing/money';
import { LedgerPosting, LedgerReferenceType } from '../billing/ledger';
import { err, ok, Result } from '../common/result';
import { AlreadySettled, TopUp, TopUpTrigger } from './top-up';

/**
 * How a provider's word on a payment settles a top-up: `pending` moves once, to
 * `succeeded`, `failed` or `expired`; after that every outcome — a replay, or a late or
 * out-of-order event — is refused and changes nothing. So the credit, which only the move to
 * `succeeded` carries, is posted exactly once.
 */

export type TopUpOutcome =
  | { readonly kind: 'succeeded' }
  /** `reason`: the provider's code (`card_declined`, `async_payment_failed`). */
  | { readonly kind: 'failed'; readonly reason: string }
  | { readonly kind: 'expired' };

export const TOP_UP_EVENTS = ['top_up.succeeded', 'top_up.failed', 'top_up.expired'] as const;
export type TopUpEventName = (typeof TOP_UP_EVENTS)[number];

export interface TopUpEvent {
  readonly name: TopUpEventName;
  readonly topUpId: number;
  readonly userId: number;
  /** `auto` outcomes also settle the account's auto-recharge (see `settleRecharge`). */
  readonly trigger: TopUpTrigger;
}

/** The `top_up` ledger entry a succeeded top-up posts, in the transaction of its status change. */
export interface TopUpCredit {
  readonly amount: number;
  /** `Top-up 31` */
  readonly description: string;
  /** A ledger reference: the compiler keeps `top_up` among the ledger's reference types. */
  readonly reference: { readonly type: Extract<LedgerReferenceType, 'top_up'>; readonly id: number };
}

export interface TopUpSettlement {
  readonly next: TopUp;
  /** Present exactly when the top-up moved to `succeeded`. */
  readonly credit: TopUpCredit | null;
  readonly events: TopUpEvent[];
}

export function settleTopUp(topUp: TopUp, outcome: TopUpOutcome, now: Date): Result<TopUpSettlement, AlreadySettled> {
  if (topUp.status !== 'pending') return err({ code: 'already_settled', status: topUp.status });
  const next: TopUp = {
    ...topUp,
    status: outcome.kind,
    failureReason: outcome.kind === 'failed' ? outcome.reason : null,
    completedAt: now,
  };
  const event: TopUpEvent = {
    name: `top_up.${outcome.kind}`,
    topUpId: topUp.id,
    userId: topUp.userId,
    trigger: topUp.trigger,
  };
  return ok({ next, credit: outcome.kind === 'succeeded' ? creditOf(topUp) : null, events: [event] });
}

function creditOf(topUp: TopUp): TopUpCredit {
  return { amount: topUp.amount, description: `Top-up ${topUp.id}`, reference: { type: 'top_up', id: topUp.id } };
}

/** The balance after a credit, in the ledger's four-decimal arithmetic. */
export function postTopUpCredit(balance: number, credit: TopUpCredit): LedgerPosting {
  return { type: 'top_up', amount: credit.amount, balanceAfter: fromUnits(toUnits(balance) + toUnits(credit.amount)) };
}
