import { randomBytes } from 'node:crypto';
import {
  ArmedBillingFaults, BillingAccount, BillingGateway, OffSessionCharge, PayableTopUp, SANDBOX_DECLINE_REASON, sandboxCheckoutReference, StartedCheckout,
} from '@voiceplane/application';
import { SandboxFault } from '../telephony/armed-faults';

/**
 * The sandbox billing provider: a checkout is a page (or the sandbox API) that settles it, the
 * saved card is always there, and an off-session charge succeeds at once — unless a
 * `billing_charge` fault is armed: the next checkout then fails to open (502), the next auto
 * top-up is declined.
 */
export class SandboxBillingGateway implements BillingGateway {
  readonly provider = 'sandbox' as const;

  constructor(private readonly publicBaseUrl: string, readonly faults: ArmedBillingFaults) {}

  async startCheckout(account: BillingAccount, topUp: PayableTopUp): Promise<StartedCheckout> {
    if (await this.faults.claim(account.userId)) throw new SandboxFault('billing_charge');
    // The page's address is its only credential: 256 random bits, shown once, kept as a hash (the provider reference).
    const token = randomBytes(32).toString('base64url');
    const page = `${this.publicBaseUrl}/api/sandbox/billing/checkout`;
    return { checkoutUrl: `${page}/${token}`, keptCheckoutUrl: page, providerReference: sandboxCheckoutReference(token), customerRef: null };
  }

  async chargeSavedPaymentMethod(account: BillingAccount, topUp: PayableTopUp): Promise<OffSessionCharge> {
    const declined = await this.faults.claim(account.userId);
    return {
      outcome: declined ? { kind: 'failed', reason: SANDBOX_DECLINE_REASON } : { kind: 'succeeded' },
      providerReference: `sandbox_charge_${topUp.id}`,
    };
  }

  canChargeOffSession(): boolean {
    return true;
  }
}
