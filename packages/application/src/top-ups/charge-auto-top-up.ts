import { TopUpOutcome } from '@voiceplane/domain';
import { WorkLogger } from '../events/ports';
import { loggableError } from '../shared/loggable-error';
import { BillingAccounts } from './billing-accounts';
import { BillingGateway } from './ports';
import { TopUpRepository } from './repositories';
import { SettleTopUp } from './settle-top-up';

/** Why an off-session charge failed when the provider could not be asked at all. */
export const PROVIDER_ERROR_REASON = 'provider_error';

/**
 * Charges the saved card for an `auto` top-up still pending (CONTRACT §13.5). The provider keys
 * the charge by the top-up id, so a redelivered event never charges twice. An immediate answer
 * settles the top-up; otherwise the provider's ingress will.
 */
export class ChargeAutoTopUp {
  constructor(
    private readonly topUps: TopUpRepository,
    private readonly accounts: BillingAccounts,
    private readonly gateway: BillingGateway,
    private readonly settle: SettleTopUp,
    private readonly log: WorkLogger,
  ) {}

  async execute(userId: number, topUpId: number): Promise<void> {
    const topUp = await this.topUps.find(userId, topUpId);
    const account = await this.accounts.of(userId);
    if (!topUp || topUp.status !== 'pending' || topUp.trigger !== 'auto' || !account) return;
    let outcome: TopUpOutcome | null;
    try {
      const charge = await this.gateway.chargeSavedPaymentMethod(account, topUp);
      if (charge.providerReference) await this.topUps.setProviderReference(topUpId, charge.providerReference);
      outcome = charge.outcome;
    } catch (e) {
      // Counted as a failed attempt: a top-up left pending would hold auto-recharge in flight for good.
      this.log.warn({ userId, topUpId, provider: this.gateway.provider, error: loggableError(e) }, 'auto-recharge charge could not reach the billing provider');
      outcome = { kind: 'failed', reason: PROVIDER_ERROR_REASON };
    }
    if (outcome) await this.settle.execute(topUpId, outcome, { trigger: 'auto' });
  }
}
