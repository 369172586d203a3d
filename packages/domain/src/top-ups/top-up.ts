import { err, ok, Result } from '../common/result';
import { BillingAmountProblem, billingAmountProblems, TOP_UP_AMOUNT_RANGE } from './amount-rules';

/** A paid top-up through the billing provider. */

export const TOP_UP_STATUSES = ['pending', 'succeeded', 'failed', 'expired'] as const;
export type TopUpStatus = (typeof TOP_UP_STATUSES)[number];
export type SettledTopUpStatus = Exclude<TopUpStatus, 'pending'>;

/** `checkout`: the user pays on the provider's page; `auto`: charged off-session by auto-recharge. */
export const TOP_UP_TRIGGERS = ['checkout', 'auto'] as const;
export type TopUpTrigger = (typeof TOP_UP_TRIGGERS)[number];

export const BILLING_PROVIDERS = ['sandbox', 'stripe'] as const;
export type BillingProvider = (typeof BILLING_PROVIDERS)[number];

export const TOP_UP_CURRENCY = 'USD';

export interface TopUp {
  readonly id: number;
  readonly userId: number;
  /** USD, whole cents. */
  readonly amount: number;
  readonly currency: typeof TOP_UP_CURRENCY;
  readonly status: TopUpStatus;
  readonly trigger: TopUpTrigger;
  /** Where the user pays; null for `auto`. */
  readonly checkoutUrl: string | null;
  readonly provider: BillingProvider;
  /** The provider's code for a `failed` top-up (`card_declined`); null otherwise. */
  readonly failureReason: string | null;
  readonly createdAt: Date;
  /** When it left `pending`, whatever the outcome. */
  readonly completedAt: Date | null;
}

/** How the top-up is paid: a checkout page (its URL known once the provider made it), or off-session. */
export type TopUpPayment =
  | { readonly trigger: 'checkout'; readonly checkoutUrl: string }
  | { readonly trigger: 'auto' };

export interface NewTopUp {
  readonly id: number;
  readonly userId: number;
  readonly amount: number;
  readonly provider: BillingProvider;
  readonly payment: TopUpPayment;
  readonly now: Date;
}

/** A top-up starts `pending`; an amount the provider could not charge is refused. */
export function newTopUp(input: NewTopUp): Result<TopUp, BillingAmountProblem[]> {
  const problems = billingAmountProblems(input.amount, TOP_UP_AMOUNT_RANGE);
  if (problems.length > 0) return err(problems);
  return ok({
    id: input.id,
    userId: input.userId,
    amount: input.amount,
    currency: TOP_UP_CURRENCY,
    status: 'pending',
    trigger: input.payment.trigger,
    checkoutUrl: input.payment.trigger === 'checkout' ? input.payment.checkoutUrl : null,
    provider: input.provider,
    failureReason: null,
    createdAt: input.now,
    completedAt: null,
  });
}

/** A settled top-up never changes again (the sandbox `complete` route answers 409; a provider event is acknowledged and ignored). */
export type AlreadySettled = { readonly code: 'already_settled'; readonly status: SettledTopUpStatus };

/** Refusals of top-up routes; the transport answers each. */
export type TopUpRefusal = 'top_up_not_found' | AlreadySettled;
