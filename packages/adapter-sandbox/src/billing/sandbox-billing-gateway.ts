import { randomBytes } from 'node:crypto';
import {
  ArmedBillingFaults,
  BillingAccount,
  BillingGateway,
  OffSessionCharge,
  PayableTopUp,
  ReconciledTopUp,
  SANDBOX_DECLINE_REASON,
  sandboxCheckoutReference,
  StartedCheckout,
} from '@voiceplane/application';
import { CHECKOUT_LIFETIME_MS, ProviderPaymentState } from '@voiceplane/domain';
import { SandboxFault } from '../telephony/armed-faults';

/**
 * The sandbox billing provider: a checkout is a page (or the sandbox API) that settles it, the
 * saved card is always there, and an off-session charge succeeds at once — unless a
 * `billing_charge` fault is armed: the next checkout then fails to open (502), the next auto
 * top-up is declined.
 */
export class SandboxBillingGateway implements BillingGateway {
  readonly provider = 'sandbox' as const;

  constructor(
    private readonly publicBaseUrl: string,
    readonly faults: ArmedBillingFaults,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async startCheckout(account: BillingAccount, topUp: PayableTopUp): Promise<StartedCheckout> {
    if (await this.faults.claim(account.userId)) throw new SandboxFault('billing_charge');
    // The page's address is its only credential: 256 random bits, shown once, kept as a hash (the provider reference).
    const token = randomBytes(32).toString('base64url');
    const page = `${this.publicBaseUrl}/api/sandbox/billing/checkout`;
    return {
      checkoutUrl: `${page}/${token}`,
      keptCheckoutUrl: page,
      providerReference: sandboxCheckoutReference(token),
      customerRef: null,
    };
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
   * charge it made (its reference kept) succeeded, and a top-up without one was never charged. A
   * checkout still pending was not paid on its page (paying settles it there and then): open while
   * it may still be paid, expired after that.
   */
  async paymentState(topUp: ReconciledTopUp, providerReference: string | null): Promise<ProviderPaymentState> {
    if (topUp.trigger === 'checkout')
      return this.now().getTime() - topUp.createdAt.getTime() >= CHECKOUT_LIFETIME_MS
        ? { kind: 'expired' }
        : { kind: 'processing' };
    return providerReference === `sandbox_charge_${topUp.id}` ? { kind: 'succeeded' } : { kind: 'not_found' };
  }

  canChargeOffSession(): boolean {
    return true;
  }
}
