import { ManualClock } from '@voiceplane/adapter-fakes';
import { BalanceService, TOKENS } from '@voiceplane/application';
import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';
import { eventually } from '@voiceplane/stand-ins/fault/webhook-receiver';

/**
 * Auto-recharge under load and failure, with the application's clock in the
 * test's hand: one recharge however many charges cross the threshold, at most one attempt per
 * 10 minutes, off after 3 declines in a row.
 */
const TEN_MINUTES = 10 * 60_000;
const clock = new ManualClock(new Date('2030-04-01T09:00:00.000Z'));
let t: TestApi;
let balances: BalanceService;
beforeAll(async () => {
  t = await createTestApi({ startBackground: false });
  t.runtime.container.rebindSync(TOKENS.Clock).toConstantValue(clock);
  for (const task of t.runtime.background) await task.start();
  balances = t.runtime.container.get(TOKENS.BalanceService);
});
afterAll(async () => {
  for (const task of [...t.runtime.background].reverse()) await task.stop();
  await t.close();
});

const charge = (user: TestUser, price: number) =>
  balances.charge({ userId: user.id, price, description: 'Test charge', reference: null });
const settings = async (user: TestUser) =>
  (await t.http.get('/api/user/billing/auto-recharge').set(user.auth)).body.data;
const autoTopUps = async (user: TestUser) =>
  t.db.dataSource.query(
    `SELECT id, status, failure_reason FROM top_ups WHERE user_id = $1 AND trigger = 'auto' ORDER BY id`,
    [user.id],
  ) as Promise<{ status: string; failure_reason: string | null }[]>;
/** Every low-balance event the account's charges raised has been through its consumer. */
const lowBalanceEventsHandled = async (user: TestUser) => {
  const [{ raised, handled }] = await t.db.dataSource.query(
    `SELECT count(*)::int AS raised, count(p.event_id)::int AS handled FROM outbox_events o
       LEFT JOIN processed_events p ON p.event_id = o.id AND p.consumer = 'auto-recharge-start'
      WHERE o.topic = 'billing.balance_low' AND o.payload->>'user_id' = $1`,
    [String(user.id)],
  );
  return { raised: raised as number, handled: handled as number };
};
const settled = async (user: TestUser) => (await autoTopUps(user)).every((x) => x.status !== 'pending');

it('20 concurrent charges crossing the threshold start exactly one recharge; none of them is refused or delayed by it', async () => {
  const user = await t.createUser({ balance: 20 });
  expect(
    (
      await t.http
        .put('/api/user/billing/auto-recharge')
        .set(user.auth)
        .send({ enabled: true, threshold: 10, amount: 25 })
    ).status,
  ).toBe(200);

  const results = await Promise.all(Array.from({ length: 20 }, () => charge(user, 0.75)));
  expect(results.every((r) => r.ok)).toBe(true);
  await eventually(async () => {
    const { raised, handled } = await lowBalanceEventsHandled(user);
    return raised > 0 && raised === handled && (await autoTopUps(user)).length > 0 && (await settled(user));
  }, 'every low-balance event to be handled and the recharge settled');
  const { raised } = await lowBalanceEventsHandled(user);
  expect(raised).toBeGreaterThanOrEqual(1);
  expect(await autoTopUps(user)).toEqual([expect.objectContaining({ status: 'succeeded' })]);
  expect((await t.http.get('/api/user/billing/balance').set(user.auth)).body.total_balance).toBe(30);
});

it('declines back off for 10 minutes and the third in a row switches auto-recharge off; turning it on again starts afresh', async () => {
  const user = await t.createUser({ balance: 4 });
  await t.http.put('/api/user/billing/auto-recharge').set(user.auth).send({ enabled: true, threshold: 5, amount: 10 });
  await t.http.post('/api/sandbox/faults').set(user.auth).send({ kind: 'billing_charge', count: 3 });

  const attemptAfterCharge = async (expectedAttempts: number) => {
    await charge(user, 0.1);
    await eventually(
      async () => (await autoTopUps(user)).length === expectedAttempts && (await settled(user)),
      `attempt ${expectedAttempts} to settle`,
    );
  };
  await attemptAfterCharge(1);
  expect(await settings(user)).toEqual(
    expect.objectContaining({
      enabled: true,
      consecutive_failures: 1,
      last_error: 'card_declined',
      last_attempt_at: clock.now().toISOString(),
    }),
  );

  // Within 10 minutes of the last attempt a charge starts nothing (not even an event to consume).
  clock.advance(TEN_MINUTES - 1);
  const quiet = await lowBalanceEventsHandled(user);
  await charge(user, 0.1);
  expect(await lowBalanceEventsHandled(user)).toEqual(quiet);
  expect(await autoTopUps(user)).toHaveLength(1);

  clock.advance(1);
  await attemptAfterCharge(2);
  clock.advance(TEN_MINUTES);
  await attemptAfterCharge(3);
  expect(await autoTopUps(user)).toEqual(
    Array(3).fill(expect.objectContaining({ status: 'failed', failure_reason: 'card_declined' })),
  );
  expect(await settings(user)).toEqual(
    expect.objectContaining({ enabled: false, consecutive_failures: 3, last_error: 'card_declined' }),
  );

  clock.advance(TEN_MINUTES);
  const off = await lowBalanceEventsHandled(user);
  await charge(user, 0.1);
  expect(await lowBalanceEventsHandled(user)).toEqual(off);

  const again = await t.http.put('/api/user/billing/auto-recharge').set(user.auth).send({ enabled: true });
  expect(again.body.data).toEqual(expect.objectContaining({ enabled: true, consecutive_failures: 0 }));
  await attemptAfterCharge(4);
  expect(await settings(user)).toEqual(
    expect.objectContaining({ enabled: true, consecutive_failures: 0, last_error: null }),
  );
  // 4 − six charges of 0.10 + 10 from the fourth attempt, the first the card paid.
  expect((await t.http.get('/api/user/billing/balance').set(user.auth)).body.total_balance).toBe(13.4);
});
