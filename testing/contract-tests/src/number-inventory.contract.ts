import { AvailableNumber, NumberHolder, NumberInventory } from '@voiceplane/application';
import { E164_PATTERN, NumberCountry, numberContains, splitNumber } from '@voiceplane/domain';

/** The countries the contract searches: every inventory must stock at least three numbers in each. */
const NUMBER_INVENTORY_SUITE_COUNTRIES: readonly NumberCountry[] = ['US', 'CA', 'GB'];

const buyer: NumberHolder = { accountId: 7, phoneNumberId: null };
const otherBuyer: NumberHolder = { accountId: 8, phoneNumberId: null };
const owner: NumberHolder = { accountId: 7, phoneNumberId: 41 };
/** A valid E.164 number of a country no inventory serves (Germany). */
const UNSERVED_NUMBER = '+493012345678';
const EVERYTHING = 100;

const digitsOf = (e164: string) => e164.replace(/\D/g, '');

/** A number of the same country and length that `offered` does not contain. */
function notOffered(offered: readonly AvailableNumber[]): string {
  const taken = new Set(offered.map((n) => n.phoneNumber));
  const base = offered[0].phoneNumber.slice(0, -2);
  for (let tail = 0; tail < 100; tail++) {
    const candidate = base + String(tail).padStart(2, '0');
    if (!taken.has(candidate) && splitNumber(candidate)?.country === offered[0].countryCode) return candidate;
  }
  throw new Error(`no free number next to ${offered[0].phoneNumber}`);
}

/**
 * The NumberInventory port's behaviour (ports.ts), run against every
 * implementation. `makeInventory` is called once per test and returns an inventory whose stock
 * nobody has bought from yet.
 */
export function numberInventoryContract(name: string, makeInventory: () => NumberInventory): void {
  describe(`NumberInventory contract: ${name}`, () => {
    let inventory: NumberInventory;
    const everything = (countryCode: NumberCountry) =>
      inventory.search({ countryCode, contains: null, limit: EVERYTHING, accountId: buyer.accountId });

    beforeEach(() => {
      inventory = makeInventory();
    });

    it.each(NUMBER_INVENTORY_SUITE_COUNTRIES)(
      '%s: offers distinct, E.164-valid numbers of the requested country only',
      async (country) => {
        const found = await everything(country);

        expect(found.length).toBeGreaterThanOrEqual(3);
        expect(new Set(found.map((n) => n.phoneNumber)).size).toBe(found.length);
        for (const n of found) {
          expect(n.phoneNumber).toMatch(E164_PATTERN);
          expect(splitNumber(n.phoneNumber)?.country).toBe(country);
          expect(n.countryCode).toBe(country);
          expect(n.price).toBeGreaterThan(0);
        }
      },
    );

    it('offers only numbers containing the digits asked for', async () => {
      const all = await everything('GB');
      const wanted = all[all.length - 1];
      const contains = digitsOf(wanted.phoneNumber).slice(-4);

      const found = await inventory.search({
        countryCode: 'GB',
        contains,
        limit: EVERYTHING,
        accountId: buyer.accountId,
      });

      expect(found.map((n) => n.phoneNumber)).toContain(wanted.phoneNumber);
      expect(found.filter((n) => !numberContains(n.phoneNumber, contains))).toEqual([]);
    });

    it('offers only numbers containing a single digit asked for', async () => {
      const all = await everything('US');
      // A digit some offered numbers have and others lack, so the filter has something to remove.
      const digit = [...'0123456789'].find(
        (d) => all.some((n) => numberContains(n.phoneNumber, d)) && !all.every((n) => numberContains(n.phoneNumber, d)),
      );
      expect(digit).toBeDefined();

      const found = await inventory.search({
        countryCode: 'US',
        contains: digit as string,
        limit: EVERYTHING,
        accountId: buyer.accountId,
      });

      expect(found.length).toBeGreaterThan(0);
      expect(found.filter((n) => !numberContains(n.phoneNumber, digit as string))).toEqual([]);
    });

    it('offers at most `limit` numbers', async () => {
      expect(
        await inventory.search({ countryCode: 'GB', contains: null, limit: 2, accountId: buyer.accountId }),
      ).toHaveLength(2);
      expect(
        await inventory.search({ countryCode: 'GB', contains: null, limit: 1, accountId: buyer.accountId }),
      ).toHaveLength(1);
    });

    it('finds the current offer of exactly the number asked for, and null for a number not offered', async () => {
      const all = await everything('CA');

      expect(await inventory.find(all[1].phoneNumber, buyer)).toEqual(all[1]);
      expect(await inventory.find(notOffered(all), buyer)).toBeNull();
      expect(await inventory.find(UNSERVED_NUMBER, buyer)).toBeNull();
    });

    it('buys an offered number and gives it back; giving back a number already gone succeeds', async () => {
      const [offer] = await everything('US');

      const bought = await inventory.purchase(offer, buyer);

      expect(bought).not.toBeNull();
      const reference = (bought as { reference: string | null }).reference;
      if (reference !== null) expect(reference).toMatch(/\S/);
      await inventory.release(offer.phoneNumber, reference, owner);
      await inventory.release(offer.phoneNumber, reference, owner);
    });

    it('answers null when buying a number that is not offered', async () => {
      const all = await everything('GB');

      expect(await inventory.purchase({ ...all[0], phoneNumber: notOffered(all) }, buyer)).toBeNull();
    });

    it('takes a bought number off the offer: found no more, and null to a later buyer', async () => {
      const all = await everything('US');
      const offer = all[0];
      expect(await inventory.purchase(offer, buyer)).not.toBeNull();

      expect((await everything('US')).map((n) => n.phoneNumber)).not.toContain(offer.phoneNumber);
      expect(await inventory.find(offer.phoneNumber, otherBuyer)).toBeNull();
      expect(await inventory.purchase(offer, otherBuyer)).toBeNull();
    });
  });
}
