import { ISO_COUNTRY_CODES, NUMBER_COUNTRIES } from './countries';
import {
  addMonthsClamped,
  addressRequirementOf,
  monthlyPrice,
  needsRegisteredAddress,
  nextRenewal,
  numberContains,
} from './number-offers';
import { formatNational, splitNumber } from './phone-format';

describe('address requirements', () => {
  it.each([
    ['none', 'none'],
    ['any', 'local'],
    ['ANY', 'local'],
    ['local', 'local'],
    ['foreign', 'foreign'],
    ['inventory', 'inventory'],
    ['something-new', 'local'],
  ])('provider %p → %p', (provider, ours) => expect(addressRequirementOf(provider)).toBe(ours));

  it('only local and foreign need a registered address', () => {
    expect(['none', 'local', 'foreign', 'inventory'].filter((r) => needsRegisteredAddress(r as never))).toEqual([
      'local',
      'foreign',
    ]);
  });
});

describe('countries', () => {
  it('lists every officially assigned ISO 3166-1 alpha-2 code once', () => {
    expect(ISO_COUNTRY_CODES).toHaveLength(249);
    expect(new Set(ISO_COUNTRY_CODES).size).toBe(249);
    for (const c of NUMBER_COUNTRIES) expect(ISO_COUNTRY_CODES).toContain(c);
  });

  it('prices every number country with a billing price id', () => {
    expect(monthlyPrice('GB', 'local')).toEqual({ price: 1.5, billingPriceId: 'price_gb_local_monthly' });
    for (const c of NUMBER_COUNTRIES) expect(monthlyPrice(c, 'mobile').price).toBeGreaterThan(0);
  });
});

describe('national formatting', () => {
  it.each([
    ['+14155550134', 'US', '(415) 555-0134'],
    ['+14165550123', 'CA', '(416) 555-0123'],
    ['+442079460123', 'GB', '020 7946 0123'],
    ['+441614960123', 'GB', '0161 496 0123'],
    ['+447700900123', 'GB', '07700 900123'],
    ['+61255501234', 'AU', '02 5550 1234'],
    ['+61491570156', 'AU', '0491 570 156'],
    ['+97231234567', 'IL', '03-123-4567'],
    ['+972501234567', 'IL', '050-123-4567'],
    ['+48221234567', 'PL', '22 123 45 67'],
    ['+48512345678', 'PL', '512 345 678'],
    ['+35891234567', 'FI', '09 123 4567'],
    ['+358401234567', 'FI', '040 123 4567'],
    ['+31201234567', 'NL', '020 123 4567'],
    ['+31612345678', 'NL', '06 12345678'],
    ['+4533123456', 'DK', '33 12 34 56'],
    ['+390212345678', 'IT', '02 1234 5678'],
    ['+393471234567', 'IT', '347 123 4567'],
  ])('%s (%s) → %s', (e164, country, formatted) => {
    expect(splitNumber(e164)?.country).toBe(country);
    expect(formatNational(e164)).toBe(formatted);
  });

  it.each([
    ['+441534123456', 'GB', '01534 123456'],
    ['+18765551234', 'US', '(876) 555-1234'],
  ])(
    "%s: a region sharing a number country's calling code is read in that country (%s → %s)",
    (e164, country, formatted) => {
      expect(splitNumber(e164)?.country).toBe(country);
      expect(formatNational(e164)).toBe(formatted);
    },
  );

  it('leaves other countries and malformed input as they are', () => {
    expect(splitNumber('+33142685300')).toBeNull();
    expect(formatNational('+33142685300')).toBe('+33142685300');
    expect(formatNational('12345')).toBe('12345');
    expect(formatNational('+1 415 555 0134')).toBe('+1 415 555 0134');
  });
});

describe('contains filter', () => {
  it.each<[string | null, boolean]>([
    [null, true],
    ['4155', true],
    ['24155550134', false],
    ['1415555013', true],
    ['0134', true],
    ['999', false],
  ])('%p', (contains, expected) => expect(numberContains('+14155550134', contains)).toBe(expected));
});

describe('monthly renewals', () => {
  const at = (s: string) => new Date(s);
  it('falls on the purchase day, clamped to short months', () => {
    expect(addMonthsClamped(at('2026-01-31T10:00:00.000Z'), 1).toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(addMonthsClamped(at('2026-01-31T10:00:00.000Z'), 2).toISOString()).toBe('2026-03-31T10:00:00.000Z');
    expect(addMonthsClamped(at('2026-11-15T00:00:00.000Z'), 2).toISOString()).toBe('2027-01-15T00:00:00.000Z');
  });

  it('the next renewal is the first one after the given time, counted from the anchor', () => {
    const anchor = at('2026-01-31T10:00:00.000Z');
    expect(nextRenewal(anchor, anchor).toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(nextRenewal(anchor, at('2026-02-28T10:00:00.000Z')).toISOString()).toBe('2026-03-31T10:00:00.000Z');
    expect(nextRenewal(anchor, at('2026-06-01T00:00:00.000Z')).toISOString()).toBe('2026-06-30T10:00:00.000Z');
  });
});
