import { AvailableNumber, NumberHolder, NumberInventory, NumberSearch } from '@voiceplane/application';
import {
  AddressRequirement,
  formatNational,
  monthlyPrice,
  NumberCountry,
  numberContains,
  NumberKind,
  NUMBER_COUNTRIES,
} from '@voiceplane/domain';
import { ArmedFaults } from './armed-faults';

interface NumberRange {
  /** E.164 prefix. */
  readonly prefix: string;
  /** Digits after the prefix. */
  readonly digits: number;
  /** Allowed first digit after the prefix (subscriber numbers rarely start with 0 or 1). */
  readonly first: string;
  readonly kind: NumberKind;
  readonly count: number;
}

const range = (prefix: string, digits: number, kind: NumberKind, count: number, first = '0123456789'): NumberRange => ({
  prefix,
  digits,
  first,
  kind,
  count,
});

/**
 * Twenty numbers per country, in real geographic and mobile ranges — the ranges set aside for
 * drama and testing where the country has them (US/CA 555-01XX, Ofcom 020 7946 0XXX, ACMA
 * 02 5550 XXXX), so sandbox numbers never ring anybody.
 */
const RANGES: Readonly<Record<NumberCountry, readonly NumberRange[]>> = {
  US: [
    range('+141555501', 2, 'local', 5),
    range('+121255501', 2, 'local', 5),
    range('+131255501', 2, 'local', 5),
    range('+161755501', 2, 'local', 5),
  ],
  CA: [
    range('+141655501', 2, 'local', 5),
    range('+160455501', 2, 'local', 5),
    range('+151455501', 2, 'local', 5),
    range('+161355501', 2, 'local', 5),
  ],
  GB: [range('+442079460', 3, 'local', 7), range('+441614960', 3, 'local', 6), range('+447700900', 3, 'mobile', 7)],
  AU: [range('+6125550', 4, 'local', 7), range('+6137010', 4, 'local', 6), range('+61491570', 3, 'mobile', 7)],
  IL: [
    range('+9723', 7, 'local', 7, '56789'),
    range('+9722', 7, 'local', 6, '56789'),
    range('+97250', 7, 'mobile', 7, '23456789'),
  ],
  PL: [
    range('+4822', 7, 'local', 7, '2345678'),
    range('+4812', 7, 'local', 6, '2345678'),
    range('+48512', 6, 'mobile', 7, '123456789'),
  ],
  FI: [
    range('+3589', 7, 'local', 7, '123456789'),
    range('+3582', 7, 'local', 6, '123456789'),
    range('+35840', 7, 'mobile', 7, '123456789'),
  ],
  NL: [
    range('+3120', 7, 'local', 7, '123456789'),
    range('+3110', 7, 'local', 6, '123456789'),
    range('+316', 8, 'mobile', 7, '12345'),
  ],
  DK: [
    range('+453', 7, 'local', 7, '2345689'),
    range('+454', 7, 'local', 6, '3456'),
    range('+452', 7, 'mobile', 7, '0123456789'),
  ],
  IT: [
    range('+3902', 8, 'local', 7, '2345678'),
    range('+3906', 8, 'local', 6, '2345678'),
    range('+39347', 7, 'mobile', 7, '123456789'),
  ],
  // Berlin's 030 23125 block is kept for fiction; the mobile block is 0176.
  DE: [range('+493023125', 3, 'local', 13), range('+49176', 8, 'mobile', 7, '23456789')],
};

/** Requirements by position, so every country offers some of each kind (mostly `none`). */
const REQUIREMENTS: readonly AddressRequirement[] = [
  'none',
  'none',
  'none',
  'inventory',
  'none',
  'none',
  'local',
  'none',
  'none',
  'none',
  'inventory',
  'none',
  'none',
  'foreign',
  'none',
  'none',
  'none',
  'inventory',
  'none',
  'local',
];

/** Landlines take texts only in North America. */
const LANDLINE_SMS = new Set<NumberCountry>(['US', 'CA']);

/** mulberry32: a tiny seeded generator, so the catalogue is the same on every start. */
function generator(seedText: string): () => number {
  let seed = [...seedText].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 2654435761) >>> 0, 2166136261);
  return () => {
    seed = (seed + 0x6d2b79f5) >>> 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function catalogueOf(country: NumberCountry): AvailableNumber[] {
  const next = generator(`voiceplane-sandbox-${country}`);
  const pick = (chars: string) => chars[Math.floor(next() * chars.length)];
  const numbers: AvailableNumber[] = [];
  const seen = new Set<string>();
  for (const r of RANGES[country]) {
    let made = 0;
    while (made < r.count) {
      let tail = pick(r.first);
      while (tail.length < r.digits) tail += pick('0123456789');
      const phoneNumber = r.prefix + tail;
      if (seen.has(phoneNumber)) continue;
      seen.add(phoneNumber);
      const { price, billingPriceId } = monthlyPrice(country, r.kind);
      numbers.push({
        phoneNumber,
        phoneNumberFormatted: formatNational(phoneNumber),
        countryCode: country,
        price,
        billingPriceId,
        addressRequirements: REQUIREMENTS[numbers.length],
        smsCapable: r.kind === 'mobile' || LANDLINE_SMS.has(country),
      });
      made += 1;
    }
  }
  return numbers.sort((a, b) => a.phoneNumber.localeCompare(b.phoneNumber));
}

/**
 * The number inventory simulated from a fixed catalogue: the same query
 * always gets the same answer, less the numbers this process sold and not yet took back. Ownership
 * itself lives in voiceplane's database, which the use cases consult first: the sold set only
 * makes the sandbox behave like a provider, and forgetting it on restart changes nothing visible.
 */
export class SandboxNumberInventory implements NumberInventory {
  /** Arm with `faults.arm({ accountId, targetId, count, after })`: search → 502, purchase → 500. */
  readonly faults = new ArmedFaults('number_inventory');
  private readonly catalogue = new Map<NumberCountry, AvailableNumber[]>(
    NUMBER_COUNTRIES.map((c) => [c, catalogueOf(c)]),
  );
  private readonly byNumber = new Map<string, AvailableNumber>(
    [...this.catalogue.values()].flat().map((n) => [n.phoneNumber, n]),
  );
  private readonly sold = new Set<string>();

  async search(query: NumberSearch): Promise<AvailableNumber[]> {
    this.faults.check({ accountId: query.accountId, phoneNumberId: null });
    return (this.catalogue.get(query.countryCode) ?? [])
      .filter((n) => !this.sold.has(n.phoneNumber) && numberContains(n.phoneNumber, query.contains))
      .slice(0, query.limit);
  }

  async find(phoneNumber: string, holder: NumberHolder): Promise<AvailableNumber | null> {
    this.faults.check(holder);
    return this.sold.has(phoneNumber) ? null : (this.byNumber.get(phoneNumber) ?? null);
  }

  async purchase(offer: AvailableNumber, holder: NumberHolder): Promise<{ reference: string | null } | null> {
    this.faults.check(holder);
    if (!this.byNumber.has(offer.phoneNumber) || this.sold.has(offer.phoneNumber)) return null;
    this.sold.add(offer.phoneNumber);
    return { reference: null };
  }

  async release(phoneNumber: string, _reference: string | null, holder: NumberHolder): Promise<void> {
    this.faults.check(holder);
    this.sold.delete(phoneNumber);
  }

  /** The whole catalogue of a country (tests, docs). */
  numbersOf(country: NumberCountry): readonly AvailableNumber[] {
    return this.catalogue.get(country) ?? [];
  }
}
