import type Stripe from 'stripe';
import { ProviderPaymentState, TopUpOutcome } from '@voiceplane/domain';
import {
  BillingAccount,
  BillingGateway,
  OffSessionCharge,
  PayableTopUp,
  ReconciledTopUp,
  StartedCheckout,
} from '@voiceplane/application';
import { idOf, METADATA, StripeSettings, stripeLibrary, toCents } from './stripe-client';

/**
 * Stripe as the billing provider: a Checkout Session per top-up that saves
 * the card for off-session use, and off-session PaymentIntents for auto-recharge. Every create is
 * sent with an idempotency key, so a retried request never makes a second customer or charge.
 */
export class StripeBillingGateway implements BillingGateway {
  readonly provider = 'stripe' as const;

  constructor(
    private readonly stripe: Stripe,
    private readonly settings: Pick<StripeSettings, 'returnUrl'>,
  ) {}

  async startCheckout(account: BillingAccount, topUp: PayableTopUp): Promise<StartedCheckout> {
    const customer = account.customerRef ?? (await this.createCustomer(account));
    const session = await this.stripe.checkout.sessions.create(
      {
        mode: 'payment',
        customer,
        client_reference_id: String(topUp.id),
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: 'usd',
              unit_amount: toCents(topUp.amount),
              product_data: { name: 'voiceplane balance top-up' },
            },
          },
        ],
        // The card is kept for auto-recharge.
        payment_intent_data: { setup_future_usage: 'off_session' },
        metadata: { [METADATA.topUpId]: String(topUp.id), [METADATA.userId]: String(account.userId) },
        success_url: `${this.settings.returnUrl}/?top_up=${topUp.id}&status=paid`,
        cancel_url: `${this.settings.returnUrl}/?top_up=${topUp.id}&status=cancelled`,
      },
      { idempotencyKey: `voiceplane-checkout-${topUp.id}` },
    );
    if (!session.url) throw new Error(`Stripe returned checkout session ${session.id} without a URL`);
    return { checkoutUrl: session.url, providerReference: session.id, customerRef: customer };
  }

  async chargeSavedPaymentMethod(account: BillingAccount, topUp: PayableTopUp): Promise<OffSessionCharge> {
    if (!account.customerRef || !account.paymentMethodRef)
      return { outcome: { kind: 'failed', reason: 'payment_method_missing' }, providerReference: null };
    try {
      const intent = await this.stripe.paymentIntents.create(
        {
          amount: toCents(topUp.amount),
          currency: 'usd',
          customer: account.customerRef,
          payment_method: account.paymentMethodRef,
          off_session: true,
          confirm: true,
          description: `voiceplane auto-recharge, top-up ${topUp.id}`,
          metadata: {
            [METADATA.topUpId]: String(topUp.id),
            [METADATA.userId]: String(account.userId),
            [METADATA.trigger]: 'auto',
          },
        },
        { idempotencyKey: `voiceplane-top-up-${topUp.id}` },
      );
      return { outcome: outcomeOfIntent(intent), providerReference: intent.id };
    } catch (e) {
      // A declined card (or one that needs its owner) is an answer, not an outage.
      if (e instanceof stripeLibrary().errors.StripeCardError) {
        const intentId = (e.payment_intent as { id?: string } | undefined)?.id ?? null;
        return { outcome: { kind: 'failed', reason: e.code ?? 'card_declined' }, providerReference: intentId };
      }
      throw e;
    }
  }

  async paymentState(topUp: ReconciledTopUp, providerReference: string | null): Promise<ProviderPaymentState> {
    if (topUp.trigger === 'checkout') return this.checkoutState(providerReference);
    // Read-only: creating the intent again under its idempotency key would charge once Stripe forgot the key (24 h).
    let intent: Stripe.PaymentIntent | null;
    if (providerReference?.startsWith('pi_')) {
      intent = await this.stripe.paymentIntents.retrieve(providerReference).catch((e: unknown) => {
        if (e instanceof stripeLibrary().errors.StripeInvalidRequestError && e.statusCode === 404) return null;
        throw e;
      });
    } else {
      const found = await this.stripe.paymentIntents.search({
        query: `metadata['${METADATA.topUpId}']:'${topUp.id}'`,
        limit: 1,
      });
      intent = found.data[0] ?? null;
    }
    if (intent === null) return { kind: 'not_found' };
    const outcome = outcomeOfIntent(intent);
    if (outcome === null) return { kind: 'processing' };
    return outcome.kind === 'failed' ? { kind: 'failed', reason: outcome.reason } : { kind: 'succeeded' };
  }

  /**
   * A checkout whose event never came, by its Checkout Session: paid (with the card it saved),
   * expired, failed (its asynchronous payment did), or still open or being paid.
   */
  private async checkoutState(sessionId: string | null): Promise<ProviderPaymentState> {
    if (!sessionId?.startsWith('cs_')) return { kind: 'not_found' };
    const session = await this.stripe.checkout.sessions
      .retrieve(sessionId, { expand: ['payment_intent'] })
      .catch((e: unknown) => {
        if (e instanceof stripeLibrary().errors.StripeInvalidRequestError && e.statusCode === 404) return null;
        throw e;
      });
    if (session === null) return { kind: 'not_found' };
    if (session.status === 'expired') return { kind: 'expired' };
    const intent = typeof session.payment_intent === 'object' ? session.payment_intent : null;
    if (session.status === 'complete' && session.payment_status !== 'unpaid') {
      return {
        kind: 'succeeded',
        savedCard: { customerRef: idOf(session.customer), paymentMethodRef: idOf(intent?.payment_method) },
      };
    }
    // Complete but unpaid: an asynchronous payment method, settled when its payment is.
    const outcome = session.status === 'complete' && intent ? outcomeOfIntent(intent) : null;
    if (outcome?.kind === 'failed') return { kind: 'failed', reason: 'async_payment_failed' };
    return { kind: 'processing' };
  }

  canChargeOffSession(account: BillingAccount): boolean {
    return account.customerRef !== null && account.paymentMethodRef !== null;
  }

  private async createCustomer(account: BillingAccount): Promise<string> {
    // Keyed by account: two first checkouts at once still make one customer.
    const customer = await this.stripe.customers.create(
      {
        email: account.email,
        name: account.name,
        metadata: { [METADATA.userId]: String(account.userId) },
      },
      { idempotencyKey: `voiceplane-customer-${account.userId}` },
    );
    return customer.id;
  }
}

/** What a confirmed PaymentIntent's status says now; null while Stripe is still working on it. */
export function outcomeOfIntent(intent: Stripe.PaymentIntent): TopUpOutcome | null {
  if (intent.status === 'succeeded') return { kind: 'succeeded' };
  if (intent.status === 'canceled' || intent.status === 'requires_payment_method') {
    return { kind: 'failed', reason: intent.last_payment_error?.code ?? 'payment_failed' };
  }
  return null;
}
