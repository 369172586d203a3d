import { FakeStore, InMemoryPhoneNumbers, RecordingLogger } from '@voiceplane/adapter-fakes';
import { BalanceService } from '../billing';
import { AvailableNumber, NumberInventory } from './ports';
import { PurchasePhoneNumber } from './purchase-phone-number';

/** Buying a number on the in-memory stores (proven by the telephony and ledger contracts). */

const OFFER: AvailableNumber = {
  phoneNumber: '+14155550101',
  phoneNumberFormatted: '(415) 555-0101',
  countryCode: 'US',
  price: 1.5,
  billingPriceId: 'price_us',
  addressRequirements: 'none',
  smsCapable: true,
};

/** A seller with one offer; it can refuse, or have sold the number to someone else meanwhile. */
class Seller implements NumberInventory {
  offers = new Map([[OFFER.phoneNumber, OFFER]]);
  readonly sold = new Set<string>();
  down = false;
  soldMeanwhile = false;

  async search(): Promise<AvailableNumber[]> {
    return [...this.offers.values()];
  }

  async find(phoneNumber: string): Promise<AvailableNumber | null> {
    if (this.down) throw new Error('provider answered 503');
    return this.offers.get(phoneNumber) ?? null;
  }

  async purchase(offer: AvailableNumber): Promise<{ reference: string | null } | null> {
    if (this.soldMeanwhile) return null;
    this.sold.add(offer.phoneNumber);
    return { reference: `PN_${offer.phoneNumber}` };
  }

  async release(phoneNumber: string): Promise<void> {
    this.sold.delete(phoneNumber);
  }
}

async function setup(balance = 10) {
  const store = new FakeStore(new Date('2030-05-01T12:00:00.000Z'));
  const user = await store.account({ balance });
  const phones = new InMemoryPhoneNumbers();
  const seller = new Seller();
  const log = new RecordingLogger();
  const purchase = new PurchasePhoneNumber({
    uow: store.uow,
    numbers: phones.numbers,
    users: store.users,
    balances: new BalanceService(store.ledger),
    inventory: seller,
    clock: store.clock,
    log,
  });
  const balanceOf = async (id: number) => (await store.users.findById(id))?.balance;
  return { store, user, phones, seller, log, purchase, balanceOf };
}

describe('PurchasePhoneNumber', () => {
  it('buys the offer, stores the number with its provider reference and charges the first month', async () => {
    const s = await setup(10);
    const bought = await s.purchase.execute(s.user.id, OFFER.phoneNumber, 'req_1');
    if (!bought.ok) throw new Error(bought.error);
    expect(bought.value).toEqual(
      expect.objectContaining({
        userId: s.user.id,
        phoneNumber: OFFER.phoneNumber,
        monthlyPrice: 1.5,
        providerReference: 'PN_+14155550101',
      }),
    );
    expect(await s.phones.numbers.find(s.user.id, bought.value.id)).not.toBeNull();
    expect(s.seller.sold.has(OFFER.phoneNumber)).toBe(true);
    expect(Number(await s.balanceOf(s.user.id))).toBeCloseTo(8.5);
  });

  it('never sells a number an account already owns, without asking the seller', async () => {
    const s = await setup(10);
    expect((await s.purchase.execute(s.user.id, OFFER.phoneNumber, null)).ok).toBe(true);
    s.seller.down = true;
    const other = await s.store.account({ balance: 10 });
    expect(await s.purchase.execute(other.id, OFFER.phoneNumber, null)).toEqual({ ok: false, error: 'not_available' });
  });

  it('refuses numbers that need a registered address, and balances below the first month', async () => {
    const s = await setup(1);
    expect(await s.purchase.execute(s.user.id, OFFER.phoneNumber, null)).toEqual({
      ok: false,
      error: 'insufficient_balance',
    });
    s.seller.offers.set(OFFER.phoneNumber, { ...OFFER, addressRequirements: 'local' });
    expect(await s.purchase.execute(s.user.id, OFFER.phoneNumber, null)).toEqual({
      ok: false,
      error: 'address_required',
    });
    expect(s.seller.sold.size).toBe(0);
    expect(await s.phones.numbers.list(s.user.id)).toEqual([]);
  });

  it('answers not_available for a number the seller no longer offers or sold meanwhile, and failed when it cannot be reached', async () => {
    const s = await setup(10);
    expect(await s.purchase.execute(s.user.id, '+14155550199', null)).toEqual({ ok: false, error: 'not_available' });
    s.seller.soldMeanwhile = true;
    expect(await s.purchase.execute(s.user.id, OFFER.phoneNumber, null)).toEqual({ ok: false, error: 'not_available' });
    s.seller.down = true;
    expect(await s.purchase.execute(s.user.id, OFFER.phoneNumber, null)).toEqual({ ok: false, error: 'failed' });
    expect(s.log.lines).toEqual([
      expect.objectContaining({ level: 'error', details: expect.objectContaining({ error: 'provider answered 503' }) }),
    ]);
    expect(Number(await s.balanceOf(s.user.id))).toBe(10);
  });
});
