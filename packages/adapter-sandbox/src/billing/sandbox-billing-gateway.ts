import { ArmedBillingFaults, BillingAccount, BillingGateway, OffSessionCharge, PayableTopUp, StartedCheckout } from '@voiceplane/application';
import { ProviderPaymentState } from '@voiceplane/domain';
import { SandboxFault } from '../telephony/armed-faults';

/** The `failure_reason` of an auto top-up an armed `billing_charge` fault declines (CONTRACT §14.2). */
export const SANDBOX_DECLINE_REASON = 'card_declined';

/**
 * The sandbox billing provider (CONTRACT §13.4, §13.5): a checkout is a page that S14 settles, the
 * saved card is always there, and an off-session charge succeeds at once — unless a
 * `billing_charge` fault is armed: the next checkout then fails to open (502), the next auto
 * top-up is declined.
 */
export class SandboxBillingGateway implements BillingGateway {
  readonly provider = 'sandbox' as const;

  constructor(private readonly publicBaseUrl: string, readonly faults: ArmedBillingFaults) {}

  async startCheckout(account: BillingAccount, topUp: PayableTopUp): Promise<StartedCheckout> {
    if (await this.faults.claim(account.userId)) throw new SandboxFault('billing_charge');
    return { checkoutUrl: `${this.publicBaseUrl}/api/sandbox/billing/checkout/${topUp.id}`, providerReference: `sandbox_checkout_${topUp.id}`, customerRef: null };
  }

  async chargeSavedPaymentMethod(account: BillingAccount, topUp: PayableTopUp): Promise<OffSessionCharge> {
    const declined = await this.faults.claim(account.userId);
    return {
      outcome: declined ? { kind: 'failed', reason: SANDBOX_DECLINE_REASON } : { kind: 'succeeded' },
      providerReference: `sandbox_charge_${topUp.id}`,
    };
  }

  /**
   * From the sandbox's own state: it never loses an answer and settles a decline at once, so a
   * charge it made (its reference kept) succeeded, and a top-up without one was never charged.
   */
  async paymentState(topUp: PayableTopUp, providerReference: string | null): Promise<ProviderPaymentState> {
    return providerReference === `sandbox_charge_${topUp.id}` ? { kind: 'succeeded' } : { kind: 'not_found' };
  }

  canChargeOffSession(): boolean {
    return true;
  }
}
