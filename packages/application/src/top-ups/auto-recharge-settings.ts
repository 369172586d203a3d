import {
  AutoRecharge,
  AutoRechargeChanges,
  AutoRechargeProblem,
  changeAutoRecharge,
  err,
  FieldProblems,
  ok,
  Result,
} from '@voiceplane/domain';
import { Clock } from '../ports';
import { UnitOfWork } from '../ports';
import { BillingAccounts } from './billing-accounts';
import { BillingGateway } from './ports';
import { AutoRechargeRepository } from './repositories';

export interface AutoRechargeView {
  readonly recharge: AutoRecharge;
  /** A card the provider can charge off-session is saved (always true in the sandbox). */
  readonly paymentMethodReady: boolean;
}

/** `GET`/`PUT /api/user/billing/auto-recharge`. */
export class AutoRechargeSettingsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly recharges: AutoRechargeRepository,
    private readonly accounts: BillingAccounts,
    private readonly gateway: BillingGateway,
    private readonly clock: Clock,
  ) {}

  async view(userId: number): Promise<AutoRechargeView> {
    const [recharge, ready] = await Promise.all([this.recharges.find(userId), this.paymentMethodReady(userId)]);
    return { recharge, paymentMethodReady: ready };
  }

  async change(
    userId: number,
    changes: AutoRechargeChanges,
  ): Promise<Result<AutoRechargeView, FieldProblems<AutoRechargeProblem>>> {
    const ready = await this.paymentMethodReady(userId);
    return this.uow.transaction(async () => {
      const changed = changeAutoRecharge(await this.recharges.lock(userId), changes, ready);
      if (!changed.ok) return err(changed.error);
      await this.recharges.save(changed.value, this.clock.now());
      return ok({ recharge: changed.value, paymentMethodReady: ready });
    });
  }

  private async paymentMethodReady(userId: number): Promise<boolean> {
    const account = await this.accounts.of(userId);
    return account !== null && this.gateway.canChargeOffSession(account);
  }
}
