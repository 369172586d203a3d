import { err, ok, Result } from '@voiceplane/domain';
import { AssistantRepository } from '../assistants/ports';
import { PhoneNumber, PhoneNumberRepository, SipTrunkRepository, StoredSipTrunk } from './repositories';

/** What an assistant does with a number: answers calls on it, or calls from it. */
export type NumberUse = 'inbound' | 'outbound';

/** What is read of an account's numbers: its own only, newest first. */
export class PhoneNumberQueries {
  constructor(private readonly numbers: PhoneNumberRepository, private readonly assistants: AssistantRepository) {}

  /** Purchased numbers and SIP trunks alike. */
  list(userId: number): Promise<PhoneNumber[]> {
    return this.numbers.list(userId);
  }

  /**
   * The numbers an assistant form offers: all of them, those an inbound assistant answers on, or
   * those an outbound assistant of the account calls from.
   */
  async forAssistants(userId: number, use?: NumberUse): Promise<PhoneNumber[]> {
    const numbers = await this.numbers.list(userId);
    if (use === 'inbound') return numbers.filter((n) => n.inboundAssistantId !== null);
    if (use === 'outbound') {
      const used = new Set((await this.assistants.listAll(userId, { type: 'outbound' })).map((a) => a.phoneNumberId));
      return numbers.filter((n) => used.has(n.id));
    }
    return numbers;
  }
}

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
