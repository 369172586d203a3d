import {
  FakeBillingGateway,
  FakeStore,
  InMemoryBillingProfileRepository,
  InMemoryTopUpRepository,
  RecordingLogger,
} from '@voiceplane/adapter-fakes';
import { BillingAccounts } from './billing-accounts';
import { StartTopUp } from './start-top-up';
import { TopUpQueries } from './top-up-queries';

/** Reading top-ups on the in-memory stores: an account's own only, and every account's for operators. */

async function setup() {
  const store = new FakeStore(new Date('2030-04-01T09:00:00.000Z'));
  const topUps = new InMemoryTopUpRepository();
  const profiles = new InMemoryBillingProfileRepository();
  const gateway = new FakeBillingGateway();
  const start = new StartTopUp({
    uow: store.uow,
    topUps,
    profiles,
    accounts: new BillingAccounts(store.users, profiles, gateway),
    gateway,
    clock: store.clock,
    log: new RecordingLogger(),
  });
  const started = async (userId: number, amount: number) => {
    const result = await start.execute(userId, amount);
    if (!result.ok) throw new Error(`top-up not started: ${JSON.stringify(result.error)}`);
    return result.value;
  };
  return { store, topUps, queries: new TopUpQueries(topUps), started };
}

describe('TopUpQueries', () => {
  it("finds the account's own top-up; another account's, or an unknown id, is not found", async () => {
    const s = await setup();
    const owner = await s.store.account();
    const other = await s.store.account();
    const topUp = await s.started(owner.id, 50);
    expect(await s.queries.get(owner.id, topUp.id)).toEqual({
      ok: true,
      value: expect.objectContaining({ id: topUp.id, amount: 50, status: 'pending' }),
    });
    expect(await s.queries.get(other.id, topUp.id)).toEqual({ ok: false, error: 'top_up_not_found' });
    expect(await s.queries.get(owner.id, topUp.id + 100)).toEqual({ ok: false, error: 'top_up_not_found' });
  });

  it("lists the account's own top-ups newest first, by status when asked", async () => {
    const s = await setup();
    const owner = await s.store.account();
    const other = await s.store.account();
    const first = await s.started(owner.id, 20);
    const second = await s.started(owner.id, 30);
    await s.started(other.id, 40);
    const all = await s.queries.list(owner.id, { page: 1, perPage: 15 });
    expect(all.total).toBe(2);
    expect(all.items.map((t) => t.id)).toEqual([second.id, first.id]);
    expect((await s.queries.list(owner.id, { page: 1, perPage: 15 }, 'succeeded')).total).toBe(0);
    expect((await s.queries.list(owner.id, { page: 1, perPage: 15 }, 'pending')).total).toBe(2);
  });

  it('gives operators the top-ups left to them, of every account, with the reason', async () => {
    const s = await setup();
    const a = await s.started((await s.store.account()).id, 20);
    const b = await s.started((await s.store.account()).id, 30);
    await s.started((await s.store.account()).id, 40);
    const at = s.store.clock.now();
    await s.topUps.markChecked(b.id, at, 'provider_unknown');
    await s.topUps.markChecked(a.id, at, 'provider_unknown');
    const rows = await s.queries.unreconcilable();
    expect(rows.map((r) => [r.topUp.id, r.topUp.userId, r.unreconcilable])).toEqual([
      [a.id, a.userId, 'provider_unknown'],
      [b.id, b.userId, 'provider_unknown'],
    ]);
  });
});
