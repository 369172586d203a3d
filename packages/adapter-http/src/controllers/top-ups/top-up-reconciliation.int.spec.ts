import { ReconcileTopUps, TOKENS } from '@voiceplane/application';
import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';
import { StripeStub } from '../../../../adapter-stripe/test-support/stripe-stub';

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
    config: { billingProvider: 'stripe', stripe: { secretKey: 'sk_test_e2e_0123456789', webhookSecret: 'whsec_reconcile', apiBase: stub.baseUrl } },
  });
});
afterAll(async () => {
  await t.close();
  await stub.close();
});

const sweeper = () => new ReconcileTopUps(
  t.runtime.container.get(TOKENS.TopUpRepository), t.runtime.container.get(TOKENS.BillingGateway), t.runtime.container.get(TOKENS.SettleTopUp),
  t.runtime.container.get(TOKENS.Clock), { warn: () => undefined },
);

/** An auto top-up as a lost answer leaves it. */
async function autoTopUp(user: TestUser, o: { status: 'pending' | 'failed'; ageMinutes: number; reference?: string }): Promise<number> {
  const [{ id }] = await t.db.dataSource.query(
    `INSERT INTO top_ups (user_id, amount, currency, status, trigger, checkout_url, provider, provider_reference, failure_reason, created_at, completed_at)
     VALUES ($1, 25, 'USD', $2, 'auto', NULL, 'stripe', $3, $4, now() - ($5 || ' minutes')::interval, $6) RETURNING id`,
    [user.id, o.status, o.reference ?? null, o.status === 'failed' ? 'provider_error' : null, String(o.ageMinutes), o.status === 'failed' ? new Date() : null],
  );
  return Number(id);
}
const topUpOf = async (user: TestUser, id: number) => (await t.http.get(`/api/user/billing/top-ups/${id}`).set(user.auth)).body.data;
const credits = async (user: TestUser) =>
  (await t.db.dataSource.query(`SELECT amount FROM ledger_entries WHERE user_id = $1 AND reference_type = 'top_up'`, [user.id])).map((r: { amount: string }) => Number(r.amount));

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
  expect(decided).toEqual(expect.objectContaining({ [declined]: 'settle', [unseen]: 'settle', [stuck]: 'unreconcilable' }));
  expect(decided).not.toHaveProperty(String(young));
  expect(await topUpOf(user, declined)).toEqual(expect.objectContaining({ status: 'failed', failure_reason: 'card_declined' }));
  expect(await topUpOf(user, unseen)).toEqual(expect.objectContaining({ status: 'failed', failure_reason: 'payment_not_found' }));
  expect(await topUpOf(user, stuck)).toEqual(expect.objectContaining({ status: 'pending' }));
  expect(await credits(user)).toEqual([]);
  expect(stub.requests.some((r) => r.method === 'GET' && r.path === `/v1/payment_intents/${intent}`)).toBe(true);

  const listed = await t.http.get('/api/admin/billing/top-ups/unreconcilable').set(t.admin);
  expect(listed.status).toBe(200);
  expect(listed.body.data.filter((r: { user_id: number }) => r.user_id === user.id)).toEqual([
    expect.objectContaining({ id: stuck, status: 'pending', trigger: 'auto', user_id: user.id, reason: 'still_processing', provider_reference: null, checked_at: expect.any(String) }),
  ]);
  expect((await t.http.get('/api/admin/billing/top-ups/unreconcilable').set(user.auth)).status).toBe(401);
  expect(await sweeper().sweep()).not.toHaveProperty(String(stuck));
});
