import { err, NUMBER_SEARCH_LIMIT, NumberCountry, numberContains, ok, Result } from '@voiceplane/domain';
import { AvailableNumber, NumberInventory, OperationsLog } from './ports';
import { PhoneNumberRepository } from './repositories';
import { failureText } from './failure-text';

/** Asked of the inventory beyond the cap, so numbers other accounts own can be left out. */
const HEADROOM = 20;

/**
 * What the inventory offers, minus numbers any account already owns, with
 * the digit filter applied exactly as documented whatever the provider's own matching does.
 */
export class SearchAvailableNumbers {
  constructor(
    private readonly inventory: NumberInventory,
    private readonly numbers: PhoneNumberRepository,
    private readonly log: OperationsLog,
  ) {}

  async execute(
    accountId: number,
    countryCode: NumberCountry,
    contains: string | null,
  ): Promise<Result<AvailableNumber[], 'unavailable'>> {
    let offers: AvailableNumber[];
    try {
      offers = await this.inventory.search({ countryCode, contains, limit: NUMBER_SEARCH_LIMIT + HEADROOM, accountId });
    } catch (e) {
      this.log.warn({ countryCode, error: failureText(e) }, 'Number search failed at the provider');
      return err('unavailable');
    }
    const matching = offers.filter((o) => o.countryCode === countryCode && numberContains(o.phoneNumber, contains));
    if (matching.length === 0) return ok([]);
    const owned = await this.numbers.purchasedAmong(matching.map((o) => o.phoneNumber));
    return ok(matching.filter((o) => !owned.has(o.phoneNumber)).slice(0, NUMBER_SEARCH_LIMIT));
  }
}
