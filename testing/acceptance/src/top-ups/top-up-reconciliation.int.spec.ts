import { ReconcileTopUps, TOKENS } from '@voiceplane/application';
import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';
import { StripeStub } from '@voiceplane/adapter-stripe/test-support/stripe-stub';

/**
 * Reconciling auto top-ups whose Stripe answer was lost, against the Stripe stub: the PaymentIntent
 * Stripe made is found by the top-up id (search) or by its kept reference, the top-up is settled
 * by it exactly once across racing sweeps, and one still processing after a day is listed for operators.
 */
let stub: StripeStub;
let t: TestApi;
beforeAll(async () => {
  stub = await StripeStub.start();
  t = await createTestApi({
    startBackground: false,
    config: {
      billingProvider: 'stripe',
      stripe: { secretKey: 'sk_test_e2e_0123456789', webhookSecret: 'whsec_reconcile', apiBase: stub.baseUrl },
    },
  });
});
afterAll(async () => {
  await t.close();
  await stub.close();
});

const sweeper = () =>
  new ReconcileTopUps(
    t.runtime.container.get(TOKENS.TopUpRepository),
    t.runtime.container.get(TOKENS.BillingGateway),
    t.runtime.container.get(TOKENS.SettleTopUp),
    t.runtime.container.get(TOKENS.Clock),
    { warn: () => undefined },
  );

/** An auto top-up as a lost answer leaves it. */
async function autoTopUp(
  user: TestUser,
  o: { status: 'pending' | 'failed'; ageMinutes: number; reference?: string },
): Promise<number> {
  const [{ id }] = await t.db.dataSource.query(
    `INSERT INTO top_ups (user_id, amount, currency, status, trigger, checkout_url, provider, provider_reference, failure_reason, created_at, completed_at)
     VALUES ($1, 25, 'USD', $2, 'auto', NULL, 'stripe', $3, $4, now() - ($5 || ' minutes')::interval, $6) RETURNING id`,
    [
      user.id,
      o.status,
      o.reference ?? null,
      o.status === 'failed' ? 'provider_error' : null,
      String(o.ageMinutes),
      o.status === 'failed' ? new Date() : null,
    ],
  );
  return Number(id);
}
const topUpOf = async (user: TestUser, id: number) =>
  (await t.http.get(`/api/user/billing/top-ups/${id}`).set(user.auth)).body.data;
const credits = async (user: TestUser) =>
  (
    await t.db.dataSource.query(`SELECT amount FROM ledger_entries WHERE user_id = $1 AND reference_type = 'top_up'`, [
      user.id,
    ])
  ).map((r: { amount: string }) => Number(r.amount));

it('a charge Stripe took whose answer was lost (failed provider_error) is credited once, by two racing sweeps', async () => {
  const user = await t.createUser({ balance: 1 });
  const id = await autoTopUp(user, { status: 'failed', ageMinutes: 30 });
  stub.offSessionIntent(id, 'succeeded');
  const decided = await Promise.all([sweeper().sweep(), sweeper().sweep()]);
  expect(decided.flatMap((d) => Object.values(d)).filter((k) => k === 'settle')).toHaveLength(1);
  expect(await topUpOf(user, id)).toEqual(expect.objectContaining({ status: 'succeeded', failure_reason: null }));
  expect(await credits(user)).toEqual([25]);
  expect((await t.http.get('/api/user/billing/balance').set(user.auth)).body.total_balance).toBe(26);
  const searches = stub.to('/v1/payment_intents/search');
  expect(searches.length).toBeGreaterThanOrEqual(1);
  expect(searches[0].form.query).toBe(`metadata['voiceplane_top_up_id']:'${id}'`);
  expect(stub.to('/v1/payment_intents').filter((r) => r.method === 'POST')).toHaveLength(0); // asked, never charged
});

it('a pending one is settled by its kept PaymentIntent; one Stripe never saw fails; one processing for a day is listed for operators', async () => {
  const user = await t.createUser({ balance: 1 });
  const declined = await autoTopUp(user, { status: 'pending', ageMinutes: 20 });
  const intent = stub.offSessionIntent(declined, 'requires_payment_method');
  await t.db.dataSource.query(`UPDATE top_ups SET provider_reference = $2 WHERE id = $1`, [declined, intent]);
  const unseen = await autoTopUp(user, { status: 'pending', ageMinutes: 20 });
  const stuck = await autoTopUp(user, { status: 'pending', ageMinutes: 25 * 60 });
  stub.offSessionIntent(stuck, 'processing');
  const young = await autoTopUp(user, { status: 'pending', ageMinutes: 5 });

  const decided = await sweeper().sweep();
  expect(decided).toEqual(
    expect.objectContaining({ [declined]: 'settle', [unseen]: 'settle', [stuck]: 'unreconcilable' }),
  );
  expect(decided).not.toHaveProperty(String(young));
  expect(await topUpOf(user, declined)).toEqual(
    expect.objectContaining({ status: 'failed', failure_reason: 'card_declined' }),
  );
  expect(await topUpOf(user, unseen)).toEqual(
    expect.objectContaining({ status: 'failed', failure_reason: 'payment_not_found' }),
  );
  expect(await topUpOf(user, stuck)).toEqual(expect.objectContaining({ status: 'pending' }));
  expect(await credits(user)).toEqual([]);
  expect(stub.requests.some((r) => r.method === 'GET' && r.path === `/v1/payment_intents/${intent}`)).toBe(true);

  const listed = await t.http.get('/api/admin/billing/top-ups/unreconcilable').set(t.admin);
  expect(listed.status).toBe(200);
  expect(listed.body.data.filter((r: { user_id: number }) => r.user_id === user.id)).toEqual([
    expect.objectContaining({
      id: stuck,
      status: 'pending',
      trigger: 'auto',
      user_id: user.id,
      reason: 'still_processing',
      provider_reference: null,
      checked_at: expect.any(String),
    }),
  ]);
  expect((await t.http.get('/api/admin/billing/top-ups/unreconcilable').set(user.auth)).status).toBe(401);
  expect(await sweeper().sweep()).not.toHaveProperty(String(stuck));
});

describe('checkout top-ups whose Stripe event never came', () => {
  /** A checkout started through the route, made as old as the sweep needs. */
  async function checkout(user: TestUser, ageMinutes: number): Promise<{ id: number; sessionId: string }> {
    const res = await t.http.post('/api/user/billing/top-ups').set(user.auth).send({ amount: 50 });
    expect(res.status).toBe(201);
    await t.db.dataSource.query(`UPDATE top_ups SET created_at = now() - ($2 || ' minutes')::interval WHERE id = $1`, [
      res.body.data.id,
      String(ageMinutes),
    ]);
    return { id: res.body.data.id, sessionId: res.body.data.checkout_url.split('/').pop() as string };
  }
  const savedCard = async (user: TestUser) =>
    (
      await t.db.dataSource.query(`SELECT payment_method_reference FROM billing_profiles WHERE user_id = $1`, [user.id])
    )[0]?.payment_method_reference ?? null;

  it('a paid session is credited once by two racing sweeps, its card kept for auto-recharge; asked, never charged', async () => {
    const user = await t.createUser({ balance: 1 });
    const paid = await checkout(user, 20);
    stub.payCheckout(paid.sessionId);
    const decided = await Promise.all([sweeper().sweep(), sweeper().sweep()]);
    expect(
      decided.flatMap((d) => Object.entries(d)).filter(([id, k]) => Number(id) === paid.id && k === 'settle'),
    ).toHaveLength(1);
    expect(await topUpOf(user, paid.id)).toEqual(expect.objectContaining({ status: 'succeeded', trigger: 'checkout' }));
    expect(await credits(user)).toEqual([50]);
    expect(await savedCard(user)).toBe('pm_card_visa_saved');
    const asked = stub.requests.filter((r) => r.path === `/v1/checkout/sessions/${paid.sessionId}`);
    expect(asked.length).toBeGreaterThanOrEqual(1);
    expect(asked.every((r) => r.method === 'GET')).toBe(true);
    expect(stub.to('/v1/payment_intents').filter((r) => r.method === 'POST')).toHaveLength(0);
    // Settled: later sweeps do not ask again.
    expect(await sweeper().sweep()).not.toHaveProperty(String(paid.id));
  });

  it('an expired session expires the top-up; an open one waits, a young one is not asked about', async () => {
    const user = await t.createUser({ balance: 1 });
    const expired = await checkout(user, 24 * 60 + 5);
    stub.expireCheckout(expired.sessionId);
    const open = await checkout(user, 30);
    const young = await checkout(user, 2);
    const decided = await sweeper().sweep();
    expect(decided).toEqual(expect.objectContaining({ [expired.id]: 'settle', [open.id]: 'wait' }));
    expect(decided).not.toHaveProperty(String(young.id));
    expect(await topUpOf(user, expired.id)).toEqual(expect.objectContaining({ status: 'expired' }));
    expect(await topUpOf(user, open.id)).toEqual(expect.objectContaining({ status: 'pending' }));
    expect(await credits(user)).toEqual([]);
  });
});
