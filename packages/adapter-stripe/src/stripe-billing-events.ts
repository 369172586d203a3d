import type Stripe from 'stripe';
import { BillingEventSource, ProviderBillingEvent, TopUpReport } from '@voiceplane/application';
import { outcomeOfIntent } from './stripe-billing-gateway';
import { idOf, METADATA } from './stripe-client';

/** Events signed longer ago than this, or further ahead (or signed for other bytes), are refused. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** The `t=` of a `Stripe-Signature` header, read as the library reads it (the last one counts). */
function signedAt(header: string): number | null {
  let at: number | null = null;
  for (const item of header.split(',')) {
    const [key, value] = item.split('=');
    if (key === 't') at = Number.parseInt(value, 10);
  }
  return at !== null && Number.isFinite(at) ? at : null;
}

function topUpIdOf(raw: string | null | undefined): number | null {
  if (!raw || !/^[1-9]\d{0,17}$/.test(raw)) return null;
  return Number(raw);
}

/**
 * Stripe's webhook: the signature is verified by the official library against the exact bytes
 * received; the events are read into top-up reports, every other event means nothing.
 */
export class StripeBillingEvents implements BillingEventSource {
  readonly provider = 'stripe' as const;

  constructor(
    private readonly stripe: Stripe,
    private readonly webhookSecret: string,
    private readonly nowMs: () => number = Date.now,
  ) {}

  verify(rawBody: Buffer, signature: string | null): ProviderBillingEvent | null {
    if (!signature || rawBody.length === 0) return null;
    const nowMs = this.nowMs();
    const now = Math.floor(nowMs / 1000);
    // The library refuses only events signed too long ago; one stamped ahead of the clock is as suspect.
    const at = signedAt(signature);
    if (at === null || at - now > SIGNATURE_TOLERANCE_SECONDS) return null;
    try {
      const event = this.stripe.webhooks.constructEvent(
        rawBody,
        signature,
        this.webhookSecret,
        SIGNATURE_TOLERANCE_SECONDS,
        undefined,
        nowMs,
      );
      return { id: event.id, type: event.type, payload: event };
    } catch {
      return null;
    }
  }

  async interpret(event: ProviderBillingEvent): Promise<TopUpReport | null> {
    const payload = event.payload as Stripe.Event;
    switch (payload.type) {
      case 'checkout.session.completed':
        // An asynchronous payment method settles later, through its own event.
        return payload.data.object.payment_status === 'paid' ? this.paidCheckout(payload.data.object) : null;
      case 'checkout.session.async_payment_succeeded':
        return this.paidCheckout(payload.data.object);
      case 'checkout.session.async_payment_failed':
        return checkoutReport(payload.data.object, { kind: 'failed', reason: 'async_payment_failed' });
      case 'checkout.session.expired':
        return checkoutReport(payload.data.object, { kind: 'expired' });
      case 'payment_intent.succeeded':
      case 'payment_intent.payment_failed':
        return autoReport(payload.data.object);
      default:
        return null;
    }
  }

  private async paidCheckout(session: Stripe.Checkout.Session): Promise<TopUpReport | null> {
    const report = checkoutReport(session, { kind: 'succeeded' });
    if (!report) return null;
    // The session names its PaymentIntent; the card it saved is on the intent.
    const intentId = idOf(session.payment_intent);
    const intent = intentId ? await this.stripe.paymentIntents.retrieve(intentId) : null;
    return { ...report, paymentMethodRef: idOf(intent?.payment_method) };
  }
}

function checkoutReport(session: Stripe.Checkout.Session, outcome: TopUpReport['outcome']): TopUpReport | null {
  const topUpId = topUpIdOf(session.client_reference_id);
  if (topUpId === null) return null;
  return { topUpId, trigger: 'checkout', outcome, paymentMethodRef: null, customerRef: idOf(session.customer) };
}

/** Only off-session intents voiceplane created for auto-recharge carry its metadata. */
function autoReport(intent: Stripe.PaymentIntent): TopUpReport | null {
  const topUpId = topUpIdOf(intent.metadata?.[METADATA.topUpId]);
  if (topUpId === null || intent.metadata?.[METADATA.trigger] !== 'auto') return null;
  const outcome = outcomeOfIntent(intent) ?? {
    kind: 'failed',
    reason: intent.last_payment_error?.code ?? 'payment_failed',
  };
  return { topUpId, trigger: 'auto', outcome, paymentMethodRef: null, customerRef: idOf(intent.customer) };
}
