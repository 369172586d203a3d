import { LOST_ANSWER_REASON, TopUpOutcome } from '@voiceplane/domain';
import { JobScheduler, WorkLogger } from '../events';
import { Clock } from '../ports';
import { loggableError } from '../common';
import { BillingAccounts } from './billing-accounts';
import { BillingGateway } from './ports';
import { TopUpRepository } from './repositories';
import { SettleTopUp } from './settle-top-up';

/** Why an off-session charge failed when the provider could not be asked at all, attempt after attempt. */
export const PROVIDER_ERROR_REASON = LOST_ANSWER_REASON;
export const AUTO_RECHARGE_CHARGE_JOB = 'auto_recharge.charge';
/** Attempts at reaching the provider for one charge; the retries reuse the idempotency key. */
export const MAX_CHARGE_ATTEMPTS = 3;
const RETRY_DELAY_MS = 60_000;

export interface AutoChargeRequest {
  readonly user_id: number;
  readonly top_up_id: number;
  /** 1 for the charge `auto_recharge.started` asks for. */
  readonly attempt: number;
}

export interface ChargeAutoTopUpDeps {
  readonly topUps: TopUpRepository;
  readonly accounts: BillingAccounts;
  readonly gateway: BillingGateway;
  readonly settle: SettleTopUp;
  readonly jobs: JobScheduler;
  readonly clock: Clock;
  readonly log: WorkLogger;
}

/**
 * Charges the saved card for an `auto` top-up still pending. The provider keys
 * the charge by the top-up id, so neither a redelivered event nor a retry charges twice. An
 * immediate answer settles the top-up; otherwise the provider's ingress will. When the provider
 * cannot be reached the charge is tried again later (its answer may only have been lost), and the
 * last failed attempt settles the top-up `failed`, so nothing holds auto-recharge in flight for good.
 */
export class ChargeAutoTopUp {
  constructor(private readonly d: ChargeAutoTopUpDeps) {}

  async execute(request: AutoChargeRequest): Promise<void> {
    const { user_id: userId, top_up_id: topUpId, attempt } = request;
    const topUp = await this.d.topUps.find(userId, topUpId);
    const account = await this.d.accounts.of(userId);
    if (!topUp || topUp.status !== 'pending' || topUp.trigger !== 'auto' || !account) return;
    let outcome: TopUpOutcome | null;
    try {
      const charge = await this.d.gateway.chargeSavedPaymentMethod(account, topUp);
      if (charge.providerReference) await this.d.topUps.setProviderReference(topUpId, charge.providerReference);
      outcome = charge.outcome;
    } catch (e) {
      this.d.log.warn(
        { userId, topUpId, attempt, provider: this.d.gateway.provider, error: loggableError(e) },
        'auto-recharge charge could not reach the billing provider',
      );
      if (attempt < MAX_CHARGE_ATTEMPTS) {
        const next: AutoChargeRequest = { ...request, attempt: attempt + 1 };
        await this.d.jobs.schedule({
          kind: AUTO_RECHARGE_CHARGE_JOB,
          key: `auto-recharge-charge:${topUpId}`,
          payload: next,
          runAt: new Date(this.d.clock.now().getTime() + RETRY_DELAY_MS * attempt),
        });
        return;
      }
      outcome = { kind: 'failed', reason: PROVIDER_ERROR_REASON };
    }
    if (outcome) await this.d.settle.execute(topUpId, outcome, { trigger: 'auto' });
  }
}
