import { BillingAccount } from '@voiceplane/application';
import {
  checkoutSession,
  DECLINED_PAYMENT_METHOD,
  SAVED_PAYMENT_METHOD,
  signStripe,
  stripeEvent,
  StripeStub,
} from '../test-support/stripe-stub';
import { StripeBillingEvents } from './stripe-billing-events';
import { StripeBillingGateway } from './stripe-billing-gateway';
import { createStripeClient } from './stripe-client';

/** The Stripe billing gateway and its webhook against a stub of Stripe's API on 127.0.0.1. */

const SECRET_KEY = 'sk_test_stub_0123456789';
const WEBHOOK_SECRET = 'whsec_stub_signing_secret';

let stub: StripeStub;
beforeAll(async () => {
  stub = await StripeStub.start();
});
afterAll(async () => stub.close());
beforeEach(() => stub.reset());

const client = () => createStripeClient({ secretKey: SECRET_KEY, apiBase: stub.baseUrl });
const gateway = () => new StripeBillingGateway(client(), { returnUrl: 'https://app.example.com' });
const events = () => new StripeBillingEvents(client(), WEBHOOK_SECRET);
const account = (over: Partial<BillingAccount> = {}): BillingAccount => ({
  userId: 7,
  email: 'ann@example.com',
  name: 'Ann',
  customerRef: null,
  paymentMethodRef: null,
  ...over,
});
const topUp = { id: 31, userId: 7, amount: 50, currency: 'USD' as const };

describe('checkout', () => {
  it('creates the customer once per account, then a payment-mode session that saves the card for off-session use', async () => {
    const started = await gateway().startCheckout(account(), topUp);
    const [customer] = stub.to('/v1/customers');
    expect(customer).toEqual(
      expect.objectContaining({
        method: 'POST',
        idempotencyKey: 'voiceplane-customer-7',
        authorization: `Bearer ${SECRET_KEY}`,
        form: expect.objectContaining({ email: 'ann@example.com', name: 'Ann', 'metadata[voiceplane_user_id]': '7' }),
      }),
    );
    const [session] = stub.to('/v1/checkout/sessions');
    expect(session.idempotencyKey).toBe('voiceplane-checkout-31');
    expect(session.form).toEqual(
      expect.objectContaining({
        mode: 'payment',
        client_reference_id: '31',
        'line_items[0][quantity]': '1',
        'line_items[0][price_data][currency]': 'usd',
        'line_items[0][price_data][unit_amount]': '5000',
        'payment_intent_data[setup_future_usage]': 'off_session',
      }),
    );
    expect(session.form.customer).toMatch(/^cus_/);
    expect(started).toEqual({
      checkoutUrl: expect.stringMatching(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/),
      providerReference: expect.stringMatching(/^cs_test_/),
      customerRef: session.form.customer,
    });

    await gateway().startCheckout(account({ customerRef: started.customerRef }), { ...topUp, id: 32, amount: 19.99 });
    expect(stub.to('/v1/customers')).toHaveLength(1);
    expect(stub.to('/v1/checkout/sessions')[1].form).toEqual(
      expect.objectContaining({ customer: started.customerRef, 'line_items[0][price_data][unit_amount]': '1999' }),
    );
  });

  it('throws when Stripe is down (the route answers 502)', async () => {
    stub.outage = 500;
    await expect(gateway().startCheckout(account(), topUp)).rejects.toThrow();
  });
});

describe('off-session charge', () => {
  const saved = account({ customerRef: 'cus_saved', paymentMethodRef: SAVED_PAYMENT_METHOD });

  it('confirms an off-session PaymentIntent keyed by the top-up id, and reads its success', async () => {
    const charged = await gateway().chargeSavedPaymentMethod(saved, topUp);
    expect(charged).toEqual({ outcome: { kind: 'succeeded' }, providerReference: expect.stringMatching(/^pi_/) });
    const [request] = stub.to('/v1/payment_intents');
    expect(request.idempotencyKey).toBe('voiceplane-top-up-31');
    expect(request.form).toEqual(
      expect.objectContaining({
        amount: '5000',
        currency: 'usd',
        customer: 'cus_saved',
        payment_method: SAVED_PAYMENT_METHOD,
        off_session: 'true',
        confirm: 'true',
        'metadata[voiceplane_top_up_id]': '31',
        'metadata[voiceplane_trigger]': 'auto',
      }),
    );
    // A retry (a redelivered event) gets the same PaymentIntent: never a second charge.
    expect(await gateway().chargeSavedPaymentMethod(saved, topUp)).toEqual(charged);
  });

  it("a declined card is a failed outcome with Stripe's code; an outage throws; no saved card charges nothing", async () => {
    const declined = await gateway().chargeSavedPaymentMethod(
      { ...saved, paymentMethodRef: DECLINED_PAYMENT_METHOD },
      topUp,
    );
    expect(declined).toEqual({
      outcome: { kind: 'failed', reason: 'card_declined' },
      providerReference: expect.stringMatching(/^pi_/),
    });
    expect(await gateway().chargeSavedPaymentMethod(account(), topUp)).toEqual({
      outcome: { kind: 'failed', reason: 'payment_method_missing' },
      providerReference: null,
    });
    stub.reset();
    stub.outage = 503;
    await expect(gateway().chargeSavedPaymentMethod(saved, { ...topUp, id: 99 })).rejects.toThrow();
    expect(gateway().canChargeOffSession(saved)).toBe(true);
    expect(gateway().canChargeOffSession(account({ customerRef: 'cus_x' }))).toBe(false);
  });
});

describe('webhook', () => {
  const body = (event: Record<string, unknown>) => Buffer.from(JSON.stringify(event));
  const signed = (event: Record<string, unknown>, secret = WEBHOOK_SECRET, timestamp?: number) => {
    const raw = body(event);
    return { raw, signature: signStripe(raw.toString('utf8'), secret, timestamp) };
  };

  it('accepts only the exact bytes Stripe signed with this secret within 300 s', () => {
    const event = stripeEvent(
      'evt_1',
      'checkout.session.expired',
      checkoutSession({
        id: 'cs_1',
        topUpId: 31,
        customer: 'cus_1',
        paymentStatus: 'unpaid',
        paymentIntent: null,
        status: 'expired',
      }),
    );
    const good = signed(event);
    expect(events().verify(good.raw, good.signature)).toEqual({
      id: 'evt_1',
      type: 'checkout.session.expired',
      payload: event,
    });
    expect(events().verify(Buffer.from(good.raw.toString('utf8').replace('cs_1', 'cs_2')), good.signature)).toBeNull();
    expect(events().verify(good.raw, signed(event, 'whsec_someone_else').signature)).toBeNull();
    expect(
      events().verify(good.raw, signed(event, WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 301).signature),
    ).toBeNull();
    expect(
      events().verify(good.raw, signed(event, WEBHOOK_SECRET, Math.floor(Date.now() / 1000) + 400).signature),
    ).toBeNull();
    expect(
      events().verify(good.raw, signed(event, WEBHOOK_SECRET, Math.floor(Date.now() / 1000) + 250).signature),
    ).not.toBeNull();
    expect(
      events().verify(good.raw, signed(event, WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 250).signature),
    ).not.toBeNull();
    expect(events().verify(good.raw, null)).toBeNull();
    expect(events().verify(good.raw, 'garbage')).toBeNull();
  });

  it('a paid checkout succeeds the top-up and names the card its PaymentIntent saved; an unpaid one waits', async () => {
    const intentId = stub.checkoutIntent('cus_1');
    const paid = stripeEvent(
      'evt_2',
      'checkout.session.completed',
      checkoutSession({ id: 'cs_1', topUpId: 31, customer: 'cus_1', paymentStatus: 'paid', paymentIntent: intentId }),
    );
    expect(await events().interpret({ id: 'evt_2', type: 'checkout.session.completed', payload: paid })).toEqual({
      topUpId: 31,
      trigger: 'checkout',
      outcome: { kind: 'succeeded' },
      paymentMethodRef: SAVED_PAYMENT_METHOD,
      customerRef: 'cus_1',
    });
    const unpaid = stripeEvent(
      'evt_3',
      'checkout.session.completed',
      checkoutSession({ id: 'cs_1', topUpId: 31, customer: 'cus_1', paymentStatus: 'unpaid', paymentIntent: null }),
    );
    expect(await events().interpret({ id: 'evt_3', type: 'checkout.session.completed', payload: unpaid })).toBeNull();
  });

  it.each([
    ['checkout.session.async_payment_failed', { kind: 'failed', reason: 'async_payment_failed' }],
    ['checkout.session.expired', { kind: 'expired' }],
  ])('%s settles the checkout top-up as %j', async (type, outcome) => {
    const event = stripeEvent(
      'evt_4',
      type,
      checkoutSession({ id: 'cs_1', topUpId: 31, customer: 'cus_1', paymentStatus: 'unpaid', paymentIntent: null }),
    );
    expect(await events().interpret({ id: 'evt_4', type, payload: event })).toEqual({
      topUpId: 31,
      trigger: 'checkout',
      outcome,
      paymentMethodRef: null,
      customerRef: 'cus_1',
    });
  });

  it("payment_intent events speak only for voiceplane's off-session intents; other events mean nothing", async () => {
    const intent = (status: string, metadata: Record<string, string>) => ({
      id: 'pi_9',
      object: 'payment_intent',
      status,
      customer: 'cus_1',
      metadata,
      last_payment_error: status === 'requires_payment_method' ? { code: 'card_declined' } : null,
    });
    const auto = { voiceplane_top_up_id: '44', voiceplane_trigger: 'auto' };
    const read = (type: string, object: Record<string, unknown>) =>
      events().interpret({ id: 'evt_5', type, payload: stripeEvent('evt_5', type, object) });
    expect(await read('payment_intent.succeeded', intent('succeeded', auto))).toEqual(
      expect.objectContaining({ topUpId: 44, trigger: 'auto', outcome: { kind: 'succeeded' } }),
    );
    expect(await read('payment_intent.payment_failed', intent('requires_payment_method', auto))).toEqual(
      expect.objectContaining({ topUpId: 44, trigger: 'auto', outcome: { kind: 'failed', reason: 'card_declined' } }),
    );
    expect(await read('payment_intent.succeeded', intent('succeeded', {}))).toBeNull();
    expect(await read('customer.created', { id: 'cus_1', object: 'customer' })).toBeNull();
  });
});

describe('the state of a checkout whose event never came', () => {
  const checkoutTopUp = { ...topUp, trigger: 'checkout' as const, createdAt: new Date() };

  it('reads the Checkout Session with its PaymentIntent: open → processing, paid → succeeded with the saved card, expired → expired', async () => {
    const open = await gateway().startCheckout(account(), checkoutTopUp);
    expect(await gateway().paymentState(checkoutTopUp, open.providerReference)).toEqual({ kind: 'processing' });
    const [read] = stub.requests.filter((r) => r.path === `/v1/checkout/sessions/${open.providerReference}`);
    expect(read).toEqual(
      expect.objectContaining({ method: 'GET', form: expect.objectContaining({ 'expand[0]': 'payment_intent' }) }),
    );
    stub.payCheckout(open.providerReference);
    expect(await gateway().paymentState(checkoutTopUp, open.providerReference)).toEqual({
      kind: 'succeeded',
      savedCard: { customerRef: open.customerRef, paymentMethodRef: SAVED_PAYMENT_METHOD },
    });
    const other = await gateway().startCheckout(account({ customerRef: open.customerRef }), {
      ...checkoutTopUp,
      id: 32,
    });
    stub.expireCheckout(other.providerReference);
    expect(await gateway().paymentState({ ...checkoutTopUp, id: 32 }, other.providerReference)).toEqual({
      kind: 'expired',
    });
  });

  it('a session Stripe does not know, or no session kept, is not_found; an outage throws', async () => {
    expect(await gateway().paymentState(checkoutTopUp, 'cs_test_unknown')).toEqual({ kind: 'not_found' });
    expect(await gateway().paymentState(checkoutTopUp, null)).toEqual({ kind: 'not_found' });
    stub.outage = 503;
    await expect(gateway().paymentState(checkoutTopUp, 'cs_test_unknown')).rejects.toThrow();
  });
});
