import { NumberCountry } from './countries';

/**
 * What a purchasable number needs before it can be bought: `inventory` numbers come
 * from voiceplane's own pool; `local`/`foreign` need a registered address, which voiceplane does
 * not support.
 */
export const ADDRESS_REQUIREMENTS = ['none', 'local', 'foreign', 'inventory'] as const;
export type AddressRequirement = (typeof ADDRESS_REQUIREMENTS)[number];

/** A provider's requirement in our terms: `any` (an address anywhere) is reported as `local`. */
export function addressRequirementOf(providerValue: string): AddressRequirement {
  const v = providerValue.trim().toLowerCase();
  if (v === 'none' || v === 'foreign' || v === 'inventory') return v;
  // `any`, `local` and anything a provider adds later all demand an address we cannot register.
  return 'local';
}

export const needsRegisteredAddress = (r: AddressRequirement): boolean => r === 'local' || r === 'foreign';

export type NumberKind = 'local' | 'mobile';

/** Monthly rental in USD that voiceplane charges, per country and kind of number (our choice). */
const MONTHLY_PRICES: Readonly<Record<NumberCountry, Readonly<Record<NumberKind, number>>>> = {
  US: { local: 1.15, mobile: 1.15 },
  CA: { local: 1.15, mobile: 1.15 },
  GB: { local: 1.5, mobile: 2 },
  AU: { local: 4.5, mobile: 6.5 },
  IL: { local: 5, mobile: 7 },
  PL: { local: 3.5, mobile: 4.5 },
  FI: { local: 4, mobile: 5 },
  NL: { local: 2.5, mobile: 4 },
  DK: { local: 3, mobile: 4 },
  IT: { local: 3, mobile: 5 },
  DE: { local: 2, mobile: 3.5 },
};

export interface NumberPrice {
  /** Monthly rental, USD. */
  readonly price: number;
  /** The billing provider's price id, e.g. `price_gb_local_monthly`. */
  readonly billingPriceId: string;
}

export function monthlyPrice(country: NumberCountry, kind: NumberKind): NumberPrice {
  return { price: MONTHLY_PRICES[country][kind], billingPriceId: `price_${country.toLowerCase()}_${kind}_monthly` };
}

/** Search results are capped. */
export const NUMBER_SEARCH_LIMIT = 20;

/** The `contains` filter: its digits appear anywhere in the number's E.164 digits. */
export function numberContains(e164: string, contains: string | null): boolean {
  return contains === null || e164.replace(/\D/g, '').includes(contains);
}

const lastDayOfMonth = (year: number, month: number) => new Date(Date.UTC(year, month + 1, 0)).getUTCDate();

/** `anchor` plus `months` calendar months, on the anchor's day or the month's last day if shorter. */
export function addMonthsClamped(anchor: Date, months: number): Date {
  const y = anchor.getUTCFullYear();
  const m = anchor.getUTCMonth() + months;
  const target = new Date(
    Date.UTC(
      y,
      m,
      1,
      anchor.getUTCHours(),
      anchor.getUTCMinutes(),
      anchor.getUTCSeconds(),
      anchor.getUTCMilliseconds(),
    ),
  );
  target.setUTCDate(Math.min(anchor.getUTCDate(), lastDayOfMonth(target.getUTCFullYear(), target.getUTCMonth())));
  return target;
}

/**
 * Renewals fall on the purchase day every month: the first renewal date after
 * `after`, counted from the purchase `anchor` so a 31st stays a 31st where the month allows.
 */
export function nextRenewal(anchor: Date, after: Date): Date {
  let months = 1;
  let candidate = addMonthsClamped(anchor, months);
  while (candidate.getTime() <= after.getTime()) candidate = addMonthsClamped(anchor, ++months);
  return candidate;
}
