import { nextRenewal } from '@voiceplane/domain';
import { Clock } from '../ports';
import { UnitOfWork } from '../ports';
import { BalanceService } from '../billing';
import { PhoneNumberRepository } from './repositories';

/**
 * Monthly rental of purchased numbers: charged on the purchase day, and
 * allowed to take the balance below zero. Each renewal commits with its ledger entry, so a
 * crash never charges twice; several workers share the work through row locks.
 */
export class RenewPhoneNumbers {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly numbers: PhoneNumberRepository,
    private readonly balances: BalanceService,
    private readonly clock: Clock,
  ) {}

  /** Charges every due renewal (up to `limit`); returns how many were charged. */
  async runDue(limit = 100): Promise<number> {
    let charged = 0;
    while (charged < limit) {
      const now = this.clock.now();
      const renewed = await this.uow.transaction(async () => {
        const number = await this.numbers.claimDueRenewal(now);
        if (!number || !number.renewsAt) return false;
        await this.balances.charge({
          userId: number.userId,
          price: number.monthlyPrice ?? 0,
          mayGoNegative: true,
          description: `Phone number ${number.phoneNumber} (monthly renewal)`,
          reference: { type: 'phone_number', id: number.id },
        });
        // A renewal that was missed for months is charged once per due date, one per pass.
        await this.numbers.setRenewsAt(number.id, nextRenewal(number.createdAt, number.renewsAt));
        return true;
      });
      if (!renewed) break;
      charged += 1;
    }
    return charged;
  }
}
