import { BillingAccount, BillingGateway, OffSessionCharge, PayableTopUp, StartedCheckout } from '@voiceplane/application';
import { ProviderPaymentState } from '@voiceplane/domain';
import { copy } from '../copy';

/**
 * A card provider in memory, behaving as the billing gateway contract says (a checkout per
 * top-up, one charge per top-up, declines as outcomes), steered from outside: it can be out of
 * reach, decline an account's next charge, or have settled a payment whose answer was lost.
 */
export class FakeBillingGateway implements BillingGateway {
  readonly provider = 'stripe' as const;
  /** Every call throws while set, as when the provider cannot be reached. */
  unreachable = false;
  /** The top-ups a checkout was opened for, in order. */
  readonly checkouts: PayableTopUp[] = [];
  private readonly charges = new Map<number, OffSessionCharge>();
  private readonly settled = new Map<number, ProviderPaymentState>();
  private readonly declining = new Set<number>();
  private customers = 0;
  private intents = 0;

  async startCheckout(account: BillingAccount, topUp: PayableTopUp): Promise<StartedCheckout> {
    this.reach();
    this.checkouts.push(copy(topUp));
    const customerRef = account.customerRef ?? `cus_${++this.customers}`;
    return { checkoutUrl: `https://pay.example/${topUp.id}`, providerReference: `cs_${topUp.id}`, customerRef };
  }

  async chargeSavedPaymentMethod(account: BillingAccount, topUp: PayableTopUp): Promise<OffSessionCharge> {
    this.reach();
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
    this.reach();
    const settled = this.settled.get(topUp.id);
    if (settled) return copy(settled);
    const outcome = this.charges.get(topUp.id)?.outcome;
    if (!outcome) return { kind: 'not_found' };
    return outcome.kind === 'failed' ? { kind: 'failed', reason: outcome.reason } : { kind: 'succeeded' };
  }

  declineNext(userId: number): void {
    this.declining.add(userId);
  }

  /** What the provider says about the top-up's payment from now on (a charge whose answer never arrived). */
  settleAtProvider(topUpId: number, state: ProviderPaymentState): void {
    this.settled.set(topUpId, state);
  }

  private reach(): void {
    if (this.unreachable) throw new Error('the billing provider cannot be reached');
  }
}
