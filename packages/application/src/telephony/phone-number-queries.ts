import { err, ok, Result } from '@voiceplane/domain';
import { PhoneNumber, PhoneNumberRepository, SipTrunkRepository, StoredSipTrunk } from './repositories';

/** What an assistant does with a number: answers calls on it, or calls from it. */
export type NumberUse = 'inbound' | 'outbound';

/** What is read of an account's numbers: its own only, newest first. */
export class PhoneNumberQueries {
  constructor(private readonly numbers: PhoneNumberRepository) {}

  /** Purchased numbers and SIP trunks alike. */
  list(userId: number): Promise<PhoneNumber[]> {
    return this.numbers.list(userId);
  }

  /**
   * The numbers a new assistant of that type can take: for an inbound one, those no inbound assistant
   * answers on yet (a number rings one assistant); for an outbound one, every number (callers share them).
   */
  async forAssistants(userId: number, use?: NumberUse): Promise<PhoneNumber[]> {
    const numbers = await this.numbers.list(userId);
    return use === 'inbound' ? numbers.filter(isFreeForInbound) : numbers;
  }
}

/** No inbound assistant answers on the number, so a new one may. */
export const isFreeForInbound = (n: PhoneNumber): boolean => n.inboundAssistantId === null;

/** What is read of an account's SIP trunks: its own only; another account's is not found. */
export class SipTrunkQueries {
  constructor(private readonly trunks: SipTrunkRepository) {}

  /** Newest first. */
  list(userId: number): Promise<StoredSipTrunk[]> {
    return this.trunks.list(userId);
  }

  async get(userId: number, id: number): Promise<Result<StoredSipTrunk, 'not_found'>> {
    const trunk = await this.trunks.find(userId, id);
    return trunk === null ? err('not_found') : ok(trunk);
  }
}
