import { newAutoRecharge, newTopUp, TopUp } from '@voiceplane/domain';
import {
  ArmedBillingFaults,
  AutoRechargeRepository,
  BillingInbox,
  BillingProfileRepository,
  TopUpRepository,
  UnitOfWork,
} from '@voiceplane/application';

export interface TopUpStoresFixture {
  readonly topUps: TopUpRepository;
  readonly recharges: AutoRechargeRepository;
  readonly profiles: BillingProfileRepository;
  readonly inbox: BillingInbox;
  readonly faults: ArmedBillingFaults;
  readonly uow: UnitOfWork;
  /** A fresh account id (the real tables reference users). */
  account(): Promise<number>;
}

const AT = new Date('2030-04-01T09:00:00.000Z');
const LATER = new Date('2030-04-01T09:05:00.000Z');

/** What paid top-ups and auto-recharge need of their stores, run against every implementation. */
export function topUpStoresContract(name: string, open: () => Promise<TopUpStoresFixture>): void {
  describe(`top-up stores contract: ${name}`, () => {
    let f: TopUpStoresFixture;
    beforeEach(async () => {
      f = await open();
    });

    const pending = async (
      userId: number,
      amount = 50,
      trigger: 'checkout' | 'auto' = 'checkout',
      reference = 'ref_1',
    ): Promise<TopUp> => {
      const created = newTopUp({
        id: await f.topUps.reserveId(),
        userId,
        amount,
        provider: 'sandbox',
        now: AT,
        payment: trigger === 'checkout' ? { trigger, checkoutUrl: 'https://pay.example/x' } : { trigger },
      });
      if (!created.ok) throw new Error('bad amount');
      await f.topUps.insert(created.value, reference);
      return created.value;
    };

    it('keeps a top-up as inserted, only for its owner; reserved ids are distinct', async () => {
      const owner = await f.account();
      const other = await f.account();
      const a = await pending(owner, 19.99);
      const b = await pending(owner, 25, 'auto');
      expect(b.id).not.toBe(a.id);
      expect(await f.topUps.find(owner, a.id)).toEqual(a);
      expect(await f.topUps.find(other, a.id)).toBeNull();
      expect(await f.uow.transaction(() => f.topUps.lock(b.id))).toEqual(b);
      expect(await f.topUps.lock(b.id + 1000)).toBeNull();
    });

    it('hands reconciliation every old pending top-up (checkout or auto) and auto ones failed on a lost answer, unchecked lately', async () => {
      const owner = await f.account();
      const checkout = await pending(owner, 10, 'checkout', 'cs_1');
      const auto = await pending(owner, 20, 'auto', 'pi_1');
      const lostAnswer = await pending(owner, 30, 'auto', 'pi_2');
      await f.topUps.saveSettled({ ...lostAnswer, status: 'failed', failureReason: 'provider_error', completedAt: AT });
      const declined = await pending(owner, 40, 'auto', 'pi_3');
      await f.topUps.saveSettled({ ...declined, status: 'failed', failureReason: 'card_declined', completedAt: AT });
      const checkoutFailed = await pending(owner, 45, 'checkout', 'cs_2');
      await f.topUps.saveSettled({
        ...checkoutFailed,
        status: 'failed',
        failureReason: 'provider_error',
        completedAt: AT,
      });
      const listed = await pending(owner, 50, 'checkout', 'cs_3');
      await f.topUps.markChecked(listed.id, AT, 'still_processing');
      const checked = await pending(owner, 60, 'auto', 'pi_4');
      await f.topUps.markChecked(checked.id, LATER, null);
      const mine = async (pendingBefore: Date) =>
        (await f.topUps.awaitingReconciliation(pendingBefore, AT, 1_000))
          .filter((r) => r.topUp.userId === owner)
          .map((r) => [r.topUp.id, r.providerReference]);
      expect(await mine(AT)).toEqual([
        [checkout.id, 'cs_1'],
        [auto.id, 'pi_1'],
        [lostAnswer.id, 'pi_2'],
      ]);
      // Pending ones younger than the cut-off wait; a lost answer does not.
      expect(await mine(new Date(AT.getTime() - 1))).toEqual([[lostAnswer.id, 'pi_2']]);
    });

    it("finds a top-up by its provider reference, any account's, only for that provider", async () => {
      const a = await pending(await f.account(), 10, 'checkout', 'sandbox_checkout:aa');
      await pending(await f.account(), 20, 'checkout', 'sandbox_checkout:bb');
      expect(await f.topUps.findByProviderReference('sandbox', 'sandbox_checkout:aa')).toEqual(a);
      expect(await f.topUps.findByProviderReference('stripe', 'sandbox_checkout:aa')).toBeNull();
      expect(await f.topUps.findByProviderReference('sandbox', 'sandbox_checkout:cc')).toBeNull();
    });

    it('lists newest first, pages and filters by status; stores a settlement', async () => {
      const owner = await f.account();
      const ids = [];
      for (const amount of [10, 20, 30]) ids.push((await pending(owner, amount)).id);
      const second = (await f.topUps.find(owner, ids[1]))!;
      await f.topUps.saveSettled({ ...second, status: 'failed', failureReason: 'card_declined', completedAt: LATER });
      expect(await f.topUps.find(owner, ids[1])).toEqual({
        ...second,
        status: 'failed',
        failureReason: 'card_declined',
        completedAt: LATER,
      });
      const page = await f.topUps.list(owner, { page: 1, perPage: 2 });
      expect([page.total, page.items.map((t) => t.id)]).toEqual([3, [ids[2], ids[1]]]);
      expect((await f.topUps.list(owner, { page: 1, perPage: 15 }, 'failed')).items.map((t) => t.id)).toEqual([ids[1]]);
      expect((await f.topUps.list(await f.account(), { page: 1, perPage: 15 })).total).toBe(0);
    });

    it('answers the default auto-recharge until one is saved, and keeps what was saved', async () => {
      const owner = await f.account();
      expect(await f.recharges.find(owner)).toEqual(newAutoRecharge(owner));
      expect(await f.uow.transaction(() => f.recharges.lock(owner))).toEqual(newAutoRecharge(owner));
      const saved = {
        userId: owner,
        settings: { enabled: true, threshold: 7.5, amount: 40 },
        state: { consecutiveFailures: 2, lastAttemptAt: LATER, lastError: 'card_declined', inFlightTopUpId: 12 },
      };
      await f.recharges.save(saved, LATER);
      expect(await f.recharges.find(owner)).toEqual(saved);
      expect(await f.uow.transaction(() => f.recharges.lock(owner))).toEqual(saved);
    });

    it('remembers a provider profile field by field, per provider', async () => {
      const owner = await f.account();
      expect(await f.profiles.find(owner, 'stripe')).toEqual({ customerRef: null, paymentMethodRef: null });
      await f.profiles.remember(owner, 'stripe', { customerRef: 'cus_1', paymentMethodRef: null }, AT);
      await f.profiles.remember(owner, 'stripe', { customerRef: null, paymentMethodRef: 'pm_1' }, LATER);
      expect(await f.profiles.find(owner, 'stripe')).toEqual({ customerRef: 'cus_1', paymentMethodRef: 'pm_1' });
      expect(await f.profiles.find(owner, 'sandbox')).toEqual({ customerRef: null, paymentMethodRef: null });
    });

    it('stores a provider event once per event id and marks it processed once', async () => {
      const event = {
        id: `evt_${Math.random().toString(36).slice(2)}`,
        type: 'checkout.session.completed',
        payload: { data: { object: { id: 'cs_1' } } },
      };
      const inboxId = await f.inbox.store('stripe', event, AT);
      expect(inboxId).toEqual(expect.any(Number));
      expect(await f.inbox.store('stripe', { ...event, type: 'other' }, LATER)).toBeNull();
      expect(await f.inbox.find(inboxId!)).toEqual({ inboxId, provider: 'stripe', ...event, processedAt: null });
      await f.inbox.markProcessed(inboxId!, AT);
      await f.inbox.markProcessed(inboxId!, LATER);
      expect((await f.inbox.find(inboxId!))?.processedAt).toEqual(AT);

      const unprocessed = await f.inbox.store('stripe', { ...event, id: `${event.id}_2` }, AT);
      expect(await f.inbox.purgeProcessedBefore(AT, 100)).toBe(0);
      expect(await f.inbox.purgeProcessedBefore(LATER, 100)).toBeGreaterThanOrEqual(1);
      expect(await f.inbox.find(inboxId!)).toBeNull();
      expect(await f.inbox.find(unprocessed!)).toEqual(expect.objectContaining({ processedAt: null }));
    });

    it('claims armed faults one at a time; arming again replaces what was left', async () => {
      const owner = await f.account();
      expect(await f.faults.claim(owner)).toBe(false);
      expect(await f.faults.arm(owner, 2)).toBe(2);
      expect(await f.faults.claim(owner)).toBe(true);
      expect(await f.faults.arm(owner, 1)).toBe(1);
      expect(await f.faults.claim(owner)).toBe(true);
      expect(await f.faults.claim(owner)).toBe(false);
    });
  });
}
