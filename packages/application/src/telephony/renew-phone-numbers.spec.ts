import { FakeStore, InMemoryPhoneNumbers } from '@voiceplane/adapter-fakes';
import { BalanceService } from '../billing';
import { RenewPhoneNumbers } from './renew-phone-numbers';

/** Monthly rental on the in-memory stores (proven by the telephony and ledger contracts). */

async function setup(balance: number) {
  const store = new FakeStore(new Date('2030-01-31T12:00:00.000Z'));
  const user = await store.account({ balance });
  const phones = new InMemoryPhoneNumbers();
  const now = store.clock.now();
  const number = await phones.numbers.insertPurchased({
    userId: user.id,
    phoneNumber: '+14155550101',
    countryCode: 'US',
    smsCapable: true,
    monthlyPrice: 1.5,
    providerReference: null,
    purchasedAt: now,
    renewsAt: new Date('2030-02-28T12:00:00.000Z'),
  });
  if (!number) throw new Error('taken');
  const renew = new RenewPhoneNumbers(store.uow, phones.numbers, new BalanceService(store.ledger), store.clock);
  const balanceOf = async () => Number((await store.users.findById(user.id))?.balance);
  const renewsAt = async () => (await phones.numbers.find(user.id, number.id))?.renewsAt?.toISOString();
  return { store, renew, balanceOf, renewsAt };
}

describe('RenewPhoneNumbers', () => {
  it('charges nothing before the renewal date, then one month, and moves the date on from the purchase day', async () => {
    const s = await setup(10);
    expect(await s.renew.runDue()).toBe(0);
    s.store.clock.set(new Date('2030-02-28T12:00:00.000Z'));
    expect(await s.renew.runDue()).toBe(1);
    expect(await s.balanceOf()).toBeCloseTo(8.5);
    expect(await s.renewsAt()).toBe('2030-03-31T12:00:00.000Z');
    expect(await s.renew.runDue()).toBe(0);
  });

  it('may take the balance below zero, and charges months missed one per due date', async () => {
    const s = await setup(1);
    s.store.clock.set(new Date('2030-04-15T00:00:00.000Z'));
    expect(await s.renew.runDue()).toBe(2);
    expect(await s.balanceOf()).toBeCloseTo(-2);
    expect(await s.renewsAt()).toBe('2030-04-30T12:00:00.000Z');
  });

  it('stops at its limit and leaves the rest for the next pass', async () => {
    const s = await setup(10);
    s.store.clock.set(new Date('2030-04-15T00:00:00.000Z'));
    expect(await s.renew.runDue(1)).toBe(1);
    expect(await s.renewsAt()).toBe('2030-03-31T12:00:00.000Z');
  });
});
