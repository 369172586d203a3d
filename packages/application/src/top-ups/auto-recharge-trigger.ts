import { LedgerEntry, shouldRecharge } from '@voiceplane/domain';
import { ChargeFollowUp } from '../billing';
import { Clock } from '../ports';
import { Outbox } from '../ports';
import { AutoRechargeRepository } from './repositories';

export const BALANCE_LOW_TOPIC = 'billing.balance_low';

export interface BalanceLowMessage {
  readonly user_id: number;
  readonly balance_before: number;
  readonly balance_after: number;
}

/**
 * Every charge, in its own transaction: when it leaves the balance below the account's
 * auto-recharge threshold, a `billing.balance_low` event commits with it. The
 * read takes no lock and nothing here can refuse, so the charge is neither delayed by the provider
 * nor undone; the consumer decides again under the locks, so concurrent charges start one recharge.
 */
export class AutoRechargeTrigger implements ChargeFollowUp {
  constructor(
    private readonly recharges: AutoRechargeRepository,
    private readonly outbox: Outbox,
    private readonly clock: Clock,
  ) {}

  async afterCharge(entry: LedgerEntry, balanceBefore: number): Promise<void> {
    const { settings, state } = await this.recharges.find(entry.userId);
    if (!shouldRecharge(settings, state, balanceBefore, entry.balanceAfter, this.clock.now()).recharge) return;
    const message: BalanceLowMessage = {
      user_id: entry.userId,
      balance_before: balanceBefore,
      balance_after: entry.balanceAfter,
    };
    await this.outbox.add([{ topic: BALANCE_LOW_TOPIC, payload: message }]);
  }
}
