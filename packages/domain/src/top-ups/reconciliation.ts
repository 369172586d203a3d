import { err, ok, Result } from '../common/result';
import { settleTopUp, TopUpSettlement } from './settlement';
import { TopUp } from './top-up';

/**
 * Reconciling top-ups whose provider answer was lost: an `auto` top-up left `pending` (its
 * PaymentIntent `processing`, or its answer never came) or settled `failed` only because the
 * provider could not be reached, and a `checkout` top-up still `pending` whose provider event never
 * arrived (paid, or expired, without voiceplane hearing of it). The provider is asked for the
 * payment's state and the top-up is settled by it — exactly once, since every move below starts
 * from a state it then leaves.
 */

/** Why an off-session charge failed when the provider could not be reached (its answer may only have been lost). */
export const LOST_ANSWER_REASON = 'provider_error';
/** A `pending` auto top-up is asked about once it is this old. */
export const RECONCILE_AFTER_MS = 15 * 60_000;
/** Past this the provider's idempotency window is over and a payment still processing is left to an operator. */
export const RECONCILE_GIVE_UP_MS = 24 * 3_600_000;
/** How long a checkout page can be paid (Stripe's Checkout Session default; the sandbox's pages as well). */
export const CHECKOUT_LIFETIME_MS = 24 * 3_600_000;
/** A checkout the provider still calls open this long after it was made is left to an operator (its page should have expired). */
export const CHECKOUT_GIVE_UP_MS = CHECKOUT_LIFETIME_MS + 3_600_000;

/** What the provider says about the payment of a top-up. */
export type ProviderPaymentState =
  /** `savedCard`: what a paid checkout saved for auto-recharge, when the provider says. */
  | {
      readonly kind: 'succeeded';
      readonly savedCard?: { readonly customerRef: string | null; readonly paymentMethodRef: string | null };
    }
  /** A checkout whose page expired unpaid. */
  | { readonly kind: 'expired' }
  | { readonly kind: 'failed'; readonly reason: string }
  | { readonly kind: 'processing' }
  /** The provider has no payment for the top-up: the charge never reached it. */
  | { readonly kind: 'not_found' };

export type Reconciliation =
  /** The top-up moves (and is credited when it succeeded). */
  | { readonly kind: 'settle'; readonly settlement: TopUpSettlement }
  /** Nothing to change: the stored state is the provider's. */
  | { readonly kind: 'confirmed' }
  /** Still processing: ask again later. */
  | { readonly kind: 'wait' }
  /** An operator must look (listed for them). */
  | { readonly kind: 'unreconcilable'; readonly reason: string };

/** Whether a top-up is one a reconciliation looks at. */
export function needsReconciliation(topUp: TopUp, now: Date): boolean {
  if (topUp.status === 'failed') return topUp.trigger === 'auto' && topUp.failureReason === LOST_ANSWER_REASON;
  return topUp.status === 'pending' && now.getTime() - topUp.createdAt.getTime() >= RECONCILE_AFTER_MS;
}

export function reconcileTopUp(
  topUp: TopUp,
  state: ProviderPaymentState,
  now: Date,
): Result<Reconciliation, 'not_reconcilable'> {
  if (!needsReconciliation(topUp, now)) return err('not_reconcilable');
  const tooOld =
    now.getTime() - topUp.createdAt.getTime() >=
    (topUp.trigger === 'checkout' ? CHECKOUT_GIVE_UP_MS : RECONCILE_GIVE_UP_MS);
  if (topUp.status === 'pending') {
    switch (state.kind) {
      case 'succeeded':
        return ok(settled(topUp, { kind: 'succeeded' }, now));
      case 'failed':
        return ok(settled(topUp, { kind: 'failed', reason: state.reason }, now));
      case 'expired':
        return ok(settled(topUp, { kind: 'expired' }, now));
      case 'not_found':
        return ok(settled(topUp, { kind: 'failed', reason: 'payment_not_found' }, now));
      case 'processing':
        return ok(tooOld ? { kind: 'unreconcilable', reason: 'still_processing' } : { kind: 'wait' });
    }
  }
  // `failed` because the provider could not be reached: the money may have been taken all the same.
  switch (state.kind) {
    case 'succeeded': {
      const next: TopUp = { ...topUp, status: 'succeeded', failureReason: null, completedAt: now };
      const credit = {
        amount: topUp.amount,
        description: `Top-up ${topUp.id}`,
        reference: { type: 'top_up' as const, id: topUp.id },
      };
      return ok({
        kind: 'settle',
        settlement: {
          next,
          credit,
          events: [{ name: 'top_up.succeeded', topUpId: topUp.id, userId: topUp.userId, trigger: topUp.trigger }],
        },
      });
    }
    case 'failed':
      return ok({
        kind: 'settle',
        settlement: { next: { ...topUp, failureReason: state.reason }, credit: null, events: [] },
      });
    case 'expired':
    case 'not_found':
      return ok({ kind: 'confirmed' });
    case 'processing':
      return ok(tooOld ? { kind: 'unreconcilable', reason: 'still_processing' } : { kind: 'wait' });
  }
}

function settled(topUp: TopUp, outcome: Parameters<typeof settleTopUp>[1], now: Date): Reconciliation {
  const s = settleTopUp(topUp, outcome, now);
  if (!s.ok) throw new Error(`top-up ${topUp.id} is not pending`);
  return { kind: 'settle', settlement: s.value };
}
