import {
  BillingAccount,
  BillingGateway,
  OffSessionCharge,
  PayableTopUp,
  StartedCheckout,
} from '@voiceplane/application';
import { ProviderPaymentState } from '@voiceplane/domain';
import { copy } from '../copy';

/**
 * A card provider in memory. Left alone it behaves as the billing gateway contract says: a
 * checkout per top-up, one charge per top-up (a retry answers the same one), a decline as an
 * outcome, a payment's state read from the charges it made. A test can also take it down or
 * script what it answers next, as a real provider's outage or lost answer would.
 */
export class FakeBillingGateway implements BillingGateway {
  readonly provider = 'stripe' as const;
  /** Opening a checkout throws while set. */
  down = false;
  /** `outage`: a charge throws; a charge: the next charges answer it; null: the provider's own answer. */
  charge: OffSessionCharge | 'outage' | null = null;
  /** `outage`: reading a payment throws; a state: it is answered; null: read from the charges made. */
  payment: ProviderPaymentState | 'outage' | null = null;
  /** The top-ups a checkout was opened for, in order. */
  readonly checkouts: PayableTopUp[] = [];
  private readonly charges = new Map<number, OffSessionCharge>();
  private readonly declining = new Set<number>();
  private customers = 0;
  private intents = 0;

  async startCheckout(account: BillingAccount, topUp: PayableTopUp): Promise<StartedCheckout> {
    if (this.down) throw new Error('the billing provider cannot be reached');
    this.checkouts.push(copy(topUp));
    const customerRef = account.customerRef ?? `cus_${++this.customers}`;
    return { checkoutUrl: `https://pay.example/${topUp.id}`, providerReference: `cs_${topUp.id}`, customerRef };
  }

  async chargeSavedPaymentMethod(account: BillingAccount, topUp: PayableTopUp): Promise<OffSessionCharge> {
    if (this.charge === 'outage') throw new Error('the billing provider cannot be reached');
    if (this.charge !== null) return copy(this.charge);
    const earlier = this.charges.get(topUp.id);
    if (earlier) return copy(earlier);
    const declined = this.declining.delete(account.userId);
    const charge: OffSessionCharge = {
      outcome: declined ? { kind: 'failed', reason: 'card_declined' } : { kind: 'succeeded' },
      providerReference: `pi_${++this.intents}`,
    };
    this.charges.set(topUp.id, charge);
    return copy(charge);
  }

  canChargeOffSession(account: BillingAccount): boolean {
    return account.paymentMethodRef !== null;
  }

  async paymentState(topUp: PayableTopUp): Promise<ProviderPaymentState> {
    if (this.payment === 'outage') throw new Error('the billing provider cannot be reached');
    if (this.payment !== null) return copy(this.payment);
    const outcome = this.charges.get(topUp.id)?.outcome;
    if (!outcome) return { kind: 'not_found' };
    return outcome.kind === 'failed' ? { kind: 'failed', reason: outcome.reason } : { kind: 'succeeded' };
  }

  /** The account's next charge is declined. */
  declineNext(userId: number): void {
    this.declining.add(userId);
  }
}
