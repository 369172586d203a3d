import { beginRecharge, newTopUp, shouldRecharge } from '@voiceplane/domain';
import { UserRepository } from '../ports';
import { Clock } from '../ports';
import { Outbox } from '../ports';
import { BalanceLowMessage } from './auto-recharge-trigger';
import { BillingGateway } from './ports';
import { AutoRechargeRepository, TopUpRepository } from './repositories';
import { autoRechargeEventMessage } from './settle-top-up';

/**
 * A low balance, decided again under the account's balance lock (the lock every charge takes, so
 * the decision sees every charge before it): the first qualifying event creates the `auto`
 * top-up and marks it in flight; the others find it in flight or too recent. Runs inside the
 * consumer's transaction; the card is charged after it commits (`auto_recharge.started`).
 */
export class StartAutoRecharge {
  constructor(
    private readonly users: UserRepository,
    private readonly recharges: AutoRechargeRepository,
    private readonly topUps: TopUpRepository,
    private readonly outbox: Outbox,
    private readonly gateway: BillingGateway,
    private readonly clock: Clock,
  ) {}

  async execute(message: BalanceLowMessage): Promise<number | null> {
    const balance = await this.users.lockBalance(message.user_id);
    if (balance === null) return null;
    const recharge = await this.recharges.lock(message.user_id);
    const now = this.clock.now();
    // Judged on the balance now, not the one the event saw: a top-up that landed meanwhile makes a recharge pointless.
    const decision = shouldRecharge(recharge.settings, recharge.state, message.balance_before, balance, now);
    if (!decision.recharge) return null;
    const created = newTopUp({
      id: await this.topUps.reserveId(),
      userId: message.user_id,
      amount: decision.amount,
      provider: this.gateway.provider,
      payment: { trigger: 'auto' },
      now,
    });
    if (!created.ok) return null;
    const began = beginRecharge(recharge, created.value, now);
    if (!began.ok) return null;
    await this.topUps.insert(created.value, null);
    await this.recharges.save(began.value.next, now);
    await this.outbox.add(began.value.events.map(autoRechargeEventMessage));
    return created.value.id;
  }
}
