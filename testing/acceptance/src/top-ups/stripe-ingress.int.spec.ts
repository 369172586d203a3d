import { TOKENS } from '@voiceplane/application';
import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';
import { eventually } from '@voiceplane/stand-ins/fault/webhook-receiver';
import {
  checkoutSession,
  signStripe,
  stripeEvent,
  StripeStub,
} from '@voiceplane/adapter-stripe/test-support/stripe-stub';

/**
 * BILLING_PROVIDER=stripe end to end against the Stripe stub: checkout, the webhook ingress and
 * its inbox, settlement once, and auto-recharge on the card the checkout saved.
 */
const WEBHOOK_SECRET = 'whsec_e2e_signing_secret';
const WEBHOOK = '/api/providers/billing/stripe/webhook';

let stub: StripeStub;
let t: TestApi;
beforeAll(async () => {
  stub = await StripeStub.start();
  t = await createTestApi({
    config: {
      billingProvider: 'stripe',
      stripe: { secretKey: 'sk_test_e2e_0123456789', webhookSecret: WEBHOOK_SECRET, apiBase: stub.baseUrl },
    },
  });
});
afterAll(async () => {
  await t.close();
  await stub.close();
});

const deliver = (event: Record<string, unknown>, secret = WEBHOOK_SECRET) => {
  const raw = JSON.stringify(event);
  return t.http
    .post(WEBHOOK)
    .set('Content-Type', 'application/json')
    .set('Stripe-Signature', signStripe(raw, secret))
    .send(raw);
};
const topUpOf = async (user: TestUser, id: number) =>
  (await t.http.get(`/api/user/billing/top-ups/${id}`).set(user.auth)).body.data;
const inboxRows = async () =>
  (await t.db.dataSource.query(`SELECT count(*)::int AS n FROM billing_events`))[0].n as number;
const credits = (user: TestUser) =>
  t.db.dataSource.query(`SELECT amount FROM ledger_entries WHERE user_id = $1 AND reference_type = 'top_up'`, [
    user.id,
  ]);
const processed = async (eventId: string) =>
  (await t.db.dataSource.query(`SELECT processed_at FROM billing_events WHERE event_id = $1`, [eventId]))[0]
    ?.processed_at != null;

async function checkout(user: TestUser, amount = 50) {
  const res = await t.http.post('/api/user/billing/top-ups').set(user.auth).send({ amount });
  expect(res.status).toBe(201);
  const session = stub.to('/v1/checkout/sessions').at(-1)!;
  return {
    topUp: res.body.data,
    sessionId: res.body.data.checkout_url.split('/').pop() as string,
    customer: session.form.customer,
  };
}

const completed = (
  eventId: string,
  c: { topUp: { id: number }; sessionId: string; customer: string },
  intent: string | null,
) =>
  stripeEvent(
    eventId,
    'checkout.session.completed',
    checkoutSession({
      id: c.sessionId,
      topUpId: c.topUp.id,
      customer: c.customer,
      paymentStatus: 'paid',
      paymentIntent: intent,
    }),
  );

it("a Stripe checkout top-up: the checkout URL is the session's; a 502 when Stripe is down stores nothing", async () => {
  const user = await t.createUser({ balance: 0 });
  const c = await checkout(user);
  expect(c.topUp).toEqual(
    expect.objectContaining({
      status: 'pending',
      provider: 'stripe',
      checkout_url: expect.stringMatching(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/),
    }),
  );
  stub.outage = 500;
  try {
    const down = await t.http.post('/api/user/billing/top-ups').set(user.auth).send({ amount: 20 });
    expect([down.status, down.body]).toEqual([502, { message: 'The billing provider is unavailable.' }]);
  } finally {
    stub.outage = null;
  }
  expect((await t.http.get('/api/user/billing/top-ups').set(user.auth)).body.total).toBe(1);
  // The sandbox top-up `complete` route exists only while the provider is the sandbox.
  expect(
    (await t.http.post(`/api/sandbox/billing/top-ups/${c.topUp.id}/complete`).set(user.auth).send({})).status,
  ).toBe(404);
});

it('the same checkout.session.completed delivered 5 times at once is stored once and credits once; an expired after it changes nothing', async () => {
  const user = await t.createUser({ balance: 1 });
  const c = await checkout(user);
  const event = completed(`evt_dup_${c.topUp.id}`, c, stub.checkoutIntent(c.customer));
  const before = await inboxRows();
  const answers = await Promise.all(Array.from({ length: 5 }, () => deliver(event)));
  expect(answers.map((a) => [a.status, a.body])).toEqual(Array(5).fill([200, { received: true }]));
  expect(await inboxRows()).toBe(before + 1);
  await eventually(async () => (await topUpOf(user, c.topUp.id)).status === 'succeeded', 'the top-up to succeed');
  expect(await credits(user)).toEqual([{ amount: '50.0000' }]);
  expect((await t.http.get('/api/user/billing/balance').set(user.auth)).body.total_balance).toBe(51);

  const expired = stripeEvent(
    `evt_exp_${c.topUp.id}`,
    'checkout.session.expired',
    checkoutSession({
      id: c.sessionId,
      topUpId: c.topUp.id,
      customer: c.customer,
      paymentStatus: 'unpaid',
      paymentIntent: null,
      status: 'expired',
    }),
  );
  expect((await deliver(expired)).status).toBe(200);
  await eventually(() => processed(`evt_exp_${c.topUp.id}`), 'the expired event to be processed');
  expect(await topUpOf(user, c.topUp.id)).toEqual(expect.objectContaining({ status: 'succeeded' }));
  expect(await credits(user)).toHaveLength(1);
});

it('distinct events that all say "paid" (completed, async succeeded) at once still credit once', async () => {
  const user = await t.createUser({ balance: 0 });
  const c = await checkout(user, 20);
  const intent = stub.checkoutIntent(c.customer);
  const events = Array.from({ length: 5 }, (_, i) =>
    i % 2 === 0
      ? completed(`evt_many_${c.topUp.id}_${i}`, c, intent)
      : stripeEvent(
          `evt_many_${c.topUp.id}_${i}`,
          'checkout.session.async_payment_succeeded',
          checkoutSession({
            id: c.sessionId,
            topUpId: c.topUp.id,
            customer: c.customer,
            paymentStatus: 'paid',
            paymentIntent: intent,
          }),
        ),
  );
  await Promise.all(events.map((e) => deliver(e)));
  await eventually(
    async () => (await Promise.all(events.map((e) => processed(e.id as string)))).every(Boolean),
    'every event to be processed',
  );
  expect(await credits(user)).toEqual([{ amount: '20.0000' }]);
});

it('a bad signature is a 400 that stores nothing; an unknown event is acknowledged; an unknown provider is a 404', async () => {
  const before = await inboxRows();
  const event = stripeEvent(
    'evt_forged',
    'checkout.session.completed',
    checkoutSession({ id: 'cs_x', topUpId: 1, customer: 'cus_x', paymentStatus: 'paid', paymentIntent: null }),
  );
  for (const res of [
    await deliver(event, 'whsec_forger'),
    await t.http.post(WEBHOOK).set('Content-Type', 'application/json').send(JSON.stringify(event)),
    await t.http.post(WEBHOOK).set('Stripe-Signature', 't=1,v1=abc').send(''),
  ])
    expect([res.status, res.body]).toEqual([400, { error: 'Invalid signature.' }]);
  expect(await inboxRows()).toBe(before);

  expect(
    (await deliver(stripeEvent('evt_unknown', 'customer.created', { id: 'cus_y', object: 'customer' }))).body,
  ).toEqual({ received: true });
  await eventually(() => processed('evt_unknown'), 'the unknown event to be acknowledged');
  const paypal = await t.http.post('/api/providers/billing/paypal/webhook').send('{}');
  expect([paypal.status, paypal.body]).toEqual([404, { error: 'Unknown provider.' }]);
});

it('auto-recharge charges the card the checkout saved, off-session, keyed by the top-up id; the late webhook changes nothing', async () => {
  const user = await t.createUser({ balance: 0 });
  const refused = await t.http.put('/api/user/billing/auto-recharge').set(user.auth).send({ enabled: true });
  expect(refused.body.errors).toEqual({ enabled: ['A saved payment method is required. Complete a top-up first.'] });

  const c = await checkout(user, 10);
  await deliver(completed(`evt_save_${c.topUp.id}`, c, stub.checkoutIntent(c.customer)));
  await eventually(
    async () => (await t.http.get('/api/user/billing/auto-recharge').set(user.auth)).body.data.payment_method_ready,
    'the card to be saved',
  );
  expect(
    (
      await t.http
        .put('/api/user/billing/auto-recharge')
        .set(user.auth)
        .send({ enabled: true, threshold: 8, amount: 40 })
    ).status,
  ).toBe(200);

  await t.runtime.container
    .get(TOKENS.BalanceService)
    .charge({ userId: user.id, price: 3, description: 'Test charge', reference: null });
  await eventually(
    async () => (await t.http.get('/api/user/billing/top-ups?status=succeeded').set(user.auth)).body.total === 2,
    'the auto top-up to succeed',
  );
  const [auto] = (await t.http.get('/api/user/billing/top-ups').set(user.auth)).body.data;
  expect(auto).toEqual(
    expect.objectContaining({ trigger: 'auto', amount: 40, status: 'succeeded', provider: 'stripe' }),
  );
  const [charge] = stub.to('/v1/payment_intents').filter((r) => r.method === 'POST');
  expect(charge.idempotencyKey).toBe(`voiceplane-top-up-${auto.id}`);
  expect(charge.form).toEqual(
    expect.objectContaining({ customer: c.customer, off_session: 'true', confirm: 'true', amount: '4000' }),
  );

  const late = stripeEvent(`evt_pi_${auto.id}`, 'payment_intent.succeeded', {
    id: 'pi_late',
    object: 'payment_intent',
    status: 'succeeded',
    customer: c.customer,
    metadata: { voiceplane_top_up_id: String(auto.id), voiceplane_trigger: 'auto' },
  });
  expect((await deliver(late)).status).toBe(200);
  await eventually(() => processed(`evt_pi_${auto.id}`), 'the late event to be processed');
  expect(await credits(user)).toHaveLength(2);
  expect((await t.http.get('/api/user/billing/balance').set(user.auth)).body.total_balance).toBe(47);
});

it('an auto-recharge charge that cannot reach Stripe stays pending and is scheduled again, for the job handler bound to retry it', async () => {
  const user = await t.createUser({ balance: 0 });
  const c = await checkout(user, 10);
  await deliver(completed(`evt_outage_${c.topUp.id}`, c, stub.checkoutIntent(c.customer)));
  await eventually(
    async () => (await t.http.get('/api/user/billing/auto-recharge').set(user.auth)).body.data.payment_method_ready,
    'the card to be saved',
  );
  await t.http.put('/api/user/billing/auto-recharge').set(user.auth).send({ enabled: true, threshold: 8, amount: 40 });

  stub.outage = 503;
  try {
    await t.runtime.container
      .get(TOKENS.BalanceService)
      .charge({ userId: user.id, price: 3, description: 'Test charge', reference: null });
    const job = async () =>
      (
        await t.db.dataSource.query(
          `SELECT payload FROM scheduled_jobs WHERE kind = 'auto_recharge.charge' AND payload->>'user_id' = $1`,
          [String(user.id)],
        )
      )[0];
    await eventually(async () => (await job()) !== undefined, 'the retry to be scheduled');
    const [auto] = (await t.http.get('/api/user/billing/top-ups').set(user.auth)).body.data;
    expect(auto).toEqual(expect.objectContaining({ trigger: 'auto', status: 'pending' }));
    expect((await job()).payload).toEqual({ user_id: user.id, top_up_id: auto.id, attempt: 2 });
    expect(t.runtime.container.getAll(TOKENS.JobHandler).map((h) => h.kind)).toContain('auto_recharge.charge');
  } finally {
    stub.outage = null;
  }
});
