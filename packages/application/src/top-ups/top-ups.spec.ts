import {
  FakeBillingGateway,
  FakeStore,
  InMemoryAutoRechargeRepository,
  InMemoryBillingInbox,
  InMemoryBillingProfileRepository,
  InMemoryTopUpRepository,
  RecordingLogger,
} from '@voiceplane/adapter-fakes';
import { TopUpOutcome } from '@voiceplane/domain';
import { ReconcileTopUps } from './reconcile-top-ups';
import { BalanceService } from '../billing';
import { AutoRechargeTrigger, BALANCE_LOW_TOPIC } from './auto-recharge-trigger';
import { BillingAccounts } from './billing-accounts';
import { ReceiveBillingEvent } from './billing-ingress';
import { ChargeAutoTopUp } from './charge-auto-top-up';
import { BillingEventSource, ProviderBillingEvent, TopUpReport } from './ports';
import { ProcessBillingEvent } from './process-billing-event';
import { SettleTopUp } from './settle-top-up';
import { StartAutoRecharge } from './start-auto-recharge';
import { StartTopUp } from './start-top-up';

/** The top-up use cases on the in-memory stores and the fake card provider (proven by the billing gateway contract). */

function setup() {
  const store = new FakeStore(new Date('2030-04-01T09:00:00.000Z'));
  const topUps = new InMemoryTopUpRepository();
  const recharges = new InMemoryAutoRechargeRepository();
  const profiles = new InMemoryBillingProfileRepository();
  const gateway = new FakeBillingGateway();
  const log = new RecordingLogger();
  const accounts = new BillingAccounts(store.users, profiles, gateway);
  const settle = new SettleTopUp({
    uow: store.uow,
    topUps,
    ledger: store.ledger,
    recharges,
    profiles,
    outbox: store.outbox,
    gateway,
    clock: store.clock,
  });
  const start = new StartTopUp({ uow: store.uow, topUps, profiles, accounts, gateway, clock: store.clock, log });
  const balances = new BalanceService(store.ledger, new AutoRechargeTrigger(recharges, store.outbox, store.clock));
  const startRecharge = new StartAutoRecharge(store.users, recharges, topUps, store.outbox, gateway, store.clock);
  const chargeAuto = new ChargeAutoTopUp({
    topUps,
    accounts,
    gateway,
    settle,
    jobs: store.jobs,
    clock: store.clock,
    log,
  });
  const reconcile = new ReconcileTopUps(topUps, gateway, settle, store.clock, log);
  return {
    store,
    topUps,
    recharges,
    profiles,
    gateway,
    log,
    settle,
    start,
    balances,
    startRecharge,
    chargeAuto,
    reconcile,
  };
}

describe('StartTopUp', () => {
  it('asks the provider first, then stores the pending top-up and keeps the customer', async () => {
    const s = setup();
    const user = await s.store.account();
    const started = await s.start.execute(user.id, 50);
    expect(started).toEqual({
      ok: true,
      value: expect.objectContaining({
        status: 'pending',
        trigger: 'checkout',
        amount: 50,
        checkoutUrl: expect.stringContaining('https://pay.example/'),
      }),
    });
    expect(s.gateway.checkouts).toEqual([
      { id: started.ok && started.value.id, userId: user.id, amount: 50, currency: 'USD' },
    ]);
    expect(await s.profiles.find(user.id, 'stripe')).toEqual({ customerRef: 'cus_1', paymentMethodRef: null });
  });

  it('stores nothing when the amount breaks a rule or the provider is down', async () => {
    const s = setup();
    const user = await s.store.account();
    expect(await s.start.execute(user.id, 4.999)).toEqual({
      ok: false,
      error: {
        code: 'invalid_amount',
        problems: [
          { code: 'between', min: 5, max: 10000 },
          { code: 'decimals', max: 2 },
        ],
      },
    });
    s.gateway.down = true;
    expect(await s.start.execute(user.id, 50)).toEqual({ ok: false, error: 'provider_unavailable' });
    expect((await s.topUps.list(user.id, { page: 1, perPage: 15 })).total).toBe(0);
    expect(s.log.lines).toEqual([
      expect.objectContaining({ level: 'warn', message: 'billing provider could not open a checkout' }),
    ]);
  });
});

describe('SettleTopUp', () => {
  it('credits a succeeded top-up once, with its reference, and saves the card; later words are refused', async () => {
    const s = setup();
    const user = await s.store.account({ balance: 1 });
    const topUp = (await s.start.execute(user.id, 50)).ok
      ? (await s.topUps.list(user.id, { page: 1, perPage: 1 })).items[0]
      : null;
    const profile = { customerRef: 'cus_1', paymentMethodRef: 'pm_1' };
    expect(await s.settle.execute(topUp!.id, { kind: 'succeeded' }, { trigger: 'checkout', profile })).toEqual({
      ok: true,
      value: expect.objectContaining({ status: 'succeeded' }),
    });
    for (const outcome of [{ kind: 'succeeded' }, { kind: 'expired' }] as TopUpOutcome[]) {
      expect(await s.settle.execute(topUp!.id, outcome)).toEqual({
        ok: false,
        error: { code: 'already_settled', status: 'succeeded' },
      });
    }
    expect((await s.store.users.findById(user.id))?.balance).toBe(51);
    const entries = (await s.store.ledger.list(user.id, { page: 1, perPage: 15 }, 'top_up')).items;
    expect(entries).toEqual([
      expect.objectContaining({
        amount: 50,
        description: `Top-up ${topUp!.id}`,
        reference: { type: 'top_up', id: topUp!.id },
      }),
    ]);
    expect(await s.profiles.find(user.id, 'stripe')).toEqual(profile);
    expect(s.store.outbox.events().map((e) => e.topic)).toEqual(['top_up.succeeded']);
  });

  it("another account's top-up, or a word about the wrong kind of top-up, is not found", async () => {
    const s = setup();
    const user = await s.store.account();
    const started = await s.start.execute(user.id, 20);
    const id = started.ok ? started.value.id : 0;
    expect(await s.settle.execute(id, { kind: 'succeeded' }, { userId: user.id + 1 })).toEqual({
      ok: false,
      error: 'top_up_not_found',
    });
    expect(await s.settle.execute(id, { kind: 'succeeded' }, { trigger: 'auto' })).toEqual({
      ok: false,
      error: 'top_up_not_found',
    });
    expect(await s.settle.execute(9999, { kind: 'succeeded' })).toEqual({ ok: false, error: 'top_up_not_found' });
  });
});

describe('auto-recharge: trigger, start, charge', () => {
  async function enabled(s: ReturnType<typeof setup>, balance: number) {
    const user = await s.store.account({ balance });
    await s.profiles.remember(
      user.id,
      'stripe',
      { customerRef: 'cus_1', paymentMethodRef: 'pm_1' },
      s.store.clock.now(),
    );
    const r = await s.recharges.lock(user.id);
    await s.recharges.save({ ...r, settings: { enabled: true, threshold: 5, amount: 25 } }, s.store.clock.now());
    return user;
  }
  const charge = (s: ReturnType<typeof setup>, userId: number, price: number) =>
    s.balances.charge({ userId, price, description: 'x', reference: null });
  const lowEvents = (s: ReturnType<typeof setup>) => s.store.outbox.events(BALANCE_LOW_TOPIC);

  it('a charge leaving the balance below the threshold raises balance_low in its own posting; others raise nothing', async () => {
    const s = setup();
    const user = await enabled(s, 6);
    await charge(s, user.id, 0.5);
    expect(lowEvents(s)).toEqual([]);
    await charge(s, user.id, 1);
    expect(lowEvents(s).map((e) => e.payload)).toEqual([{ user_id: user.id, balance_before: 5.5, balance_after: 4.5 }]);
    const untouched = await s.store.account({ balance: 6 });
    await charge(s, untouched.id, 3);
    expect(lowEvents(s)).toHaveLength(1);
  });

  it('several low-balance events start one recharge; its charge settles it and the credit lands once', async () => {
    const s = setup();
    const user = await enabled(s, 4);
    const message = { user_id: user.id, balance_before: 4.5, balance_after: 4 };
    const started = [
      await s.startRecharge.execute(message),
      await s.startRecharge.execute(message),
      await s.startRecharge.execute(message),
    ];
    expect(started.filter((id) => id !== null)).toHaveLength(1);
    const [event] = s.store.outbox.events('auto_recharge.started');
    const payload = event.payload as { top_up_id: number };
    await s.chargeAuto.execute({ user_id: user.id, top_up_id: payload.top_up_id, attempt: 1 });
    await s.chargeAuto.execute({ user_id: user.id, top_up_id: payload.top_up_id, attempt: 1 });
    expect(await s.topUps.find(user.id, payload.top_up_id)).toEqual(
      expect.objectContaining({ trigger: 'auto', status: 'succeeded', amount: 25 }),
    );
    expect((await s.store.users.findById(user.id))?.balance).toBe(29);
    expect((await s.recharges.find(user.id)).state).toEqual(
      expect.objectContaining({ inFlightTopUpId: null, consecutiveFailures: 0 }),
    );
    expect(s.topUps.providerReferenceOf(payload.top_up_id)).toBe('pi_1');
  });

  it('a low-balance event that finds the balance topped up meanwhile starts nothing', async () => {
    const s = setup();
    const user = await enabled(s, 30);
    expect(await s.startRecharge.execute({ user_id: user.id, balance_before: 4.5, balance_after: 4 })).toBeNull();
    expect(s.store.outbox.events('auto_recharge.started')).toEqual([]);
  });

  it('a provider outage is tried again later with the same top-up (its answer may have been lost)', async () => {
    const s = setup();
    const user = await enabled(s, 4);
    const id = await s.startRecharge.execute({ user_id: user.id, balance_before: 4.5, balance_after: 4 });
    s.gateway.charge = 'outage';
    await s.chargeAuto.execute({ user_id: user.id, top_up_id: id!, attempt: 1 });
    expect(s.store.jobs.jobs()).toEqual([
      expect.objectContaining({
        kind: 'auto_recharge.charge',
        key: `auto-recharge-charge:${id}`,
        payload: { user_id: user.id, top_up_id: id, attempt: 2 },
        runAt: new Date(s.store.clock.now().getTime() + 60_000),
      }),
    ]);
    expect(await s.topUps.find(user.id, id!)).toEqual(expect.objectContaining({ status: 'pending' }));
    s.gateway.charge = { outcome: { kind: 'succeeded' }, providerReference: 'pi_1' };
    await s.chargeAuto.execute({ user_id: user.id, top_up_id: id!, attempt: 2 });
    expect(await s.topUps.find(user.id, id!)).toEqual(expect.objectContaining({ status: 'succeeded' }));
  });

  it('the last attempt that cannot reach the provider fails the top-up (provider_error), so nothing stays in flight', async () => {
    const s = setup();
    const user = await enabled(s, 4);
    const id = await s.startRecharge.execute({ user_id: user.id, balance_before: 4.5, balance_after: 4 });
    s.gateway.charge = 'outage';
    await s.chargeAuto.execute({ user_id: user.id, top_up_id: id!, attempt: 3 });
    expect(await s.topUps.find(user.id, id!)).toEqual(
      expect.objectContaining({ status: 'failed', failureReason: 'provider_error' }),
    );
    expect((await s.recharges.find(user.id)).state).toEqual(
      expect.objectContaining({ inFlightTopUpId: null, consecutiveFailures: 1, lastError: 'provider_error' }),
    );
  });
});

describe('reconciliation of lost answers', () => {
  async function lostAuto(s: ReturnType<typeof setup>, kind: 'failed' | 'pending') {
    const user = await s.store.account({ balance: 4 });
    await s.profiles.remember(
      user.id,
      'stripe',
      { customerRef: 'cus_1', paymentMethodRef: 'pm_1' },
      s.store.clock.now(),
    );
    const r = await s.recharges.lock(user.id);
    await s.recharges.save({ ...r, settings: { enabled: true, threshold: 5, amount: 25 } }, s.store.clock.now());
    const id = (await s.startRecharge.execute({ user_id: user.id, balance_before: 4.5, balance_after: 4 }))!;
    s.gateway.charge = 'outage';
    if (kind === 'failed') await s.chargeAuto.execute({ user_id: user.id, top_up_id: id, attempt: 3 });
    return { user, id };
  }
  const balance = async (s: ReturnType<typeof setup>, userId: number) =>
    (await s.store.users.findById(userId))?.balance;

  it('a charge failed on a lost answer that the provider took is credited once, however often the sweep runs', async () => {
    const s = setup();
    const { user, id } = await lostAuto(s, 'failed');
    s.gateway.payment = { kind: 'succeeded' };
    expect(await s.reconcile.sweep()).toEqual({ [id]: 'settle' });
    expect(await s.topUps.find(user.id, id)).toEqual(
      expect.objectContaining({ status: 'succeeded', failureReason: null }),
    );
    expect(await balance(s, user.id)).toBe(29);
    s.store.clock.advance(10 * 60_000);
    expect(await s.reconcile.sweep()).toEqual({});
    expect(await s.settle.reconcile(id, { kind: 'succeeded' })).toBe('not_reconcilable');
    expect(await balance(s, user.id)).toBe(29);
    expect(s.store.outbox.events('top_up.succeeded')).toHaveLength(1);
  });

  it('a failure that was a success after all takes back the failure it counted, so auto-recharge is not switched off for it', async () => {
    const s = setup();
    const { user, id } = await lostAuto(s, 'failed');
    // Two earlier declines and this lost answer would make three: a fourth attempt's failure would switch auto-recharge off.
    const counted = await s.recharges.lock(user.id);
    await s.recharges.save({ ...counted, state: { ...counted.state, consecutiveFailures: 2 } }, s.store.clock.now());
    s.gateway.payment = { kind: 'succeeded' };
    expect(await s.reconcile.sweep()).toEqual({ [id]: 'settle' });
    const recharge = await s.recharges.find(user.id);
    expect(recharge.settings.enabled).toBe(true);
    expect(recharge.state).toEqual(
      expect.objectContaining({ consecutiveFailures: 0, lastError: null, inFlightTopUpId: null }),
    );
  });

  it('a failure turned success after a later attempt takes off its own failure only', async () => {
    const s = setup();
    const { user, id } = await lostAuto(s, 'failed');
    // A later attempt is in flight (its outcome will count on its own).
    const r = await s.recharges.lock(user.id);
    await s.recharges.save(
      { ...r, state: { ...r.state, consecutiveFailures: 2, inFlightTopUpId: id + 1 } },
      s.store.clock.now(),
    );
    s.gateway.payment = { kind: 'succeeded' };
    expect(await s.reconcile.sweep()).toEqual({ [id]: 'settle' });
    expect((await s.recharges.find(user.id)).state).toEqual(
      expect.objectContaining({ consecutiveFailures: 1, lastError: 'provider_error', inFlightTopUpId: id + 1 }),
    );
  });

  it('a failed charge the provider never saw stays failed and is not asked about again', async () => {
    const s = setup();
    const { user, id } = await lostAuto(s, 'failed');
    expect(await s.reconcile.sweep()).toEqual({ [id]: 'confirmed' });
    s.store.clock.advance(10 * 60_000);
    expect(await s.reconcile.sweep()).toEqual({ [id]: 'confirmed' });
    expect(await s.topUps.find(user.id, id)).toEqual(
      expect.objectContaining({ status: 'failed', failureReason: 'provider_error' }),
    );
    expect(await balance(s, user.id)).toBe(4);
  });

  it('a pending auto top-up is asked about after 15 minutes; processing for a day it is listed for operators', async () => {
    const s = setup();
    const { user, id } = await lostAuto(s, 'pending');
    s.gateway.payment = { kind: 'processing' };
    expect(await s.reconcile.sweep()).toEqual({});
    s.store.clock.advance(15 * 60_000);
    expect(await s.reconcile.sweep()).toEqual({ [id]: 'wait' });
    expect(await s.reconcile.sweep()).toEqual({}); // checked a moment ago
    s.store.clock.advance(24 * 3_600_000);
    expect(await s.reconcile.sweep()).toEqual({ [id]: 'unreconcilable' });
    expect((await s.topUps.listUnreconcilable()).map((r) => [r.topUp.id, r.unreconcilable])).toEqual([
      [id, 'still_processing'],
    ]);
    expect(await s.reconcile.sweep()).toEqual({});
    expect(await s.topUps.find(user.id, id)).toEqual(expect.objectContaining({ status: 'pending' }));
  });

  it('a pending one the provider settled meanwhile takes its outcome; an unreachable provider is asked again later', async () => {
    const s = setup();
    const { user, id } = await lostAuto(s, 'pending');
    s.store.clock.advance(15 * 60_000);
    s.gateway.payment = 'outage';
    expect(await s.reconcile.sweep()).toEqual({ [id]: 'unreachable' });
    s.store.clock.advance(5 * 60_000);
    s.gateway.payment = { kind: 'failed', reason: 'card_declined' };
    expect(await s.reconcile.sweep()).toEqual({ [id]: 'settle' });
    expect(await s.topUps.find(user.id, id)).toEqual(
      expect.objectContaining({ status: 'failed', failureReason: 'card_declined' }),
    );
  });
});

describe('billing ingress', () => {
  class ScriptedSource implements BillingEventSource {
    readonly provider = 'stripe' as const;
    report: TopUpReport | null = null;
    verify(raw: Buffer, signature: string | null): ProviderBillingEvent | null {
      return signature === 'good'
        ? { id: JSON.parse(raw.toString()).id, type: 'checkout.session.completed', payload: JSON.parse(raw.toString()) }
        : null;
    }
    async interpret() {
      return this.report;
    }
  }

  it('stores nothing without a good signature or for an unknown provider; stores a verified event once and hands it on', async () => {
    const s = setup();
    const source = new ScriptedSource();
    const inbox = new InMemoryBillingInbox();
    const receive = new ReceiveBillingEvent(s.store.uow, [source], inbox, s.store.outbox, s.store.clock);
    const raw = Buffer.from(JSON.stringify({ id: 'evt_1' }));
    expect(await receive.execute('paypal', raw, 'good')).toEqual({ ok: false, error: 'unknown_provider' });
    expect(await receive.execute('stripe', raw, 'bad')).toEqual({ ok: false, error: 'invalid_signature' });
    expect(await inbox.find(1)).toBeNull();
    expect(await receive.execute('stripe', raw, 'good')).toEqual({ ok: true, value: 'received' });
    expect(await receive.execute('stripe', raw, 'good')).toEqual({ ok: true, value: 'received' });
    expect(s.store.outbox.events('billing.event_received').map((e) => e.payload)).toEqual([{ inbox_id: 1 }]);

    const user = await s.store.account();
    const started = await s.start.execute(user.id, 10);
    source.report = {
      topUpId: started.ok ? started.value.id : 0,
      trigger: 'checkout',
      outcome: { kind: 'succeeded' },
      paymentMethodRef: 'pm_9',
      customerRef: 'cus_1',
    };
    const process = new ProcessBillingEvent([source], inbox, s.settle, s.store.clock);
    await process.execute(1);
    await process.execute(1);
    expect((await s.store.users.findById(user.id))?.balance).toBe(10);
    expect((await inbox.find(1))?.processedAt).toEqual(s.store.clock.now());
    expect(await s.profiles.find(user.id, 'stripe')).toEqual({ customerRef: 'cus_1', paymentMethodRef: 'pm_9' });
  });
});
