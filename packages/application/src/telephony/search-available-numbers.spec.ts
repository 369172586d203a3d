import { InMemoryPhoneNumbers, RecordingLogger } from '@voiceplane/adapter-fakes';
import { NUMBER_SEARCH_LIMIT } from '@voiceplane/domain';
import { AvailableNumber, NumberInventory, NumberSearch } from './ports';
import { SearchAvailableNumbers } from './search-available-numbers';

/** The number search on the in-memory stores (proven by the telephony contract). */

const offer = (phoneNumber: string, countryCode: AvailableNumber['countryCode'] = 'US'): AvailableNumber => ({
  phoneNumber,
  phoneNumberFormatted: phoneNumber,
  countryCode,
  price: 1.5,
  billingPriceId: 'price',
  addressRequirements: 'none',
  smsCapable: true,
});

function setup(offers: AvailableNumber[]) {
  const phones = new InMemoryPhoneNumbers();
  const log = new RecordingLogger();
  const asked: NumberSearch[] = [];
  let down = false;
  const inventory: NumberInventory = {
    search: async (query) => {
      asked.push(query);
      if (down) throw new Error('provider answered 503');
      return offers;
    },
    find: async () => null,
    purchase: async () => null,
    release: async () => undefined,
  };
  const search = new SearchAvailableNumbers(inventory, phones.numbers, log);
  return {
    phones,
    log,
    asked,
    search,
    failNext: () => {
      down = true;
    },
  };
}

describe('SearchAvailableNumbers', () => {
  it('leaves out numbers an account owns, other countries and numbers without the digits, whatever the provider matched', async () => {
    const s = setup([
      offer('+14155550101'),
      offer('+14155550102'),
      offer('+14155559999'),
      offer('+442071234567', 'GB'),
    ]);
    const now = new Date('2030-05-01T12:00:00.000Z');
    await s.phones.numbers.insertPurchased({
      userId: 9,
      phoneNumber: '+14155550102',
      countryCode: 'US',
      smsCapable: true,
      monthlyPrice: 1.5,
      providerReference: null,
      purchasedAt: now,
      renewsAt: now,
    });
    const found = await s.search.execute(1, 'US', '5550');
    expect(found.ok && found.value.map((o) => o.phoneNumber)).toEqual(['+14155550101']);
    expect(s.asked).toEqual([expect.objectContaining({ countryCode: 'US', contains: '5550', accountId: 1 })]);
    expect(s.asked[0].limit).toBeGreaterThan(NUMBER_SEARCH_LIMIT);
  });

  it('answers at most the documented number of offers', async () => {
    const s = setup(
      Array.from({ length: NUMBER_SEARCH_LIMIT + 5 }, (_, i) => offer(`+1415555${String(i).padStart(4, '0')}`)),
    );
    const found = await s.search.execute(1, 'US', null);
    expect(found.ok && found.value.length).toBe(NUMBER_SEARCH_LIMIT);
  });

  it('answers unavailable and logs it when the provider fails', async () => {
    const s = setup([]);
    s.failNext();
    expect(await s.search.execute(1, 'US', null)).toEqual({ ok: false, error: 'unavailable' });
    expect(s.log.lines).toEqual([
      expect.objectContaining({ level: 'warn', details: { countryCode: 'US', error: 'provider answered 503' } }),
    ]);
  });
});
