import { err, ok, Result } from '@voiceplane/domain';
import type { Clock } from '../ports';
import type { PhoneNumber, PhoneNumberRepository } from './repositories';

/**
 * The nickname of an owned number, the label shown beside it; null clears it. Nothing reaches the
 * provider: the name is the account's own. Another account's number is not found.
 */
export class RenamePhoneNumber {
  constructor(
    private readonly numbers: PhoneNumberRepository,
    private readonly clock: Clock,
  ) {}

  async execute(userId: number, id: number, nickname: string | null): Promise<Result<PhoneNumber, 'not_found'>> {
    const renamed = await this.numbers.rename(userId, id, nickname, this.clock.now());
    return renamed === null ? err('not_found') : ok(renamed);
  }
}
