import {
  BillingAmountProblem,
  billingAmountProblems,
  err,
  newTopUp,
  ok,
  Result,
  TopUp,
  TOP_UP_AMOUNT_RANGE,
} from '@voiceplane/domain';
import { Clock } from '../ports';
import { UnitOfWork } from '../ports';
import { WorkLogger } from '../events';
import { loggableError } from '../common';
import { BillingAccounts } from './billing-accounts';
import { BillingGateway } from './ports';
import { BillingProfileRepository, TopUpRepository } from './repositories';

export type StartTopUpRefusal =
  | { readonly code: 'invalid_amount'; readonly problems: BillingAmountProblem[] }
  | 'account_gone'
  /** The provider could not open a checkout: nothing is stored (502). */
  | 'provider_unavailable';

export interface StartTopUpDeps {
  readonly uow: UnitOfWork;
  readonly topUps: TopUpRepository;
  readonly profiles: BillingProfileRepository;
  readonly accounts: BillingAccounts;
  readonly gateway: BillingGateway;
  readonly clock: Clock;
  readonly log: WorkLogger;
}

/**
 * `POST /api/user/billing/top-ups`: the provider opens a checkout page first; only a checkout it
 * answered becomes a `pending` top-up, so a provider outage leaves nothing behind.
 */
export class StartTopUp {
  constructor(private readonly d: StartTopUpDeps) {}

  async execute(userId: number, amount: number): Promise<Result<TopUp, StartTopUpRefusal>> {
    const problems = billingAmountProblems(amount, TOP_UP_AMOUNT_RANGE);
    if (problems.length > 0) return err({ code: 'invalid_amount', problems });
    const account = await this.d.accounts.of(userId);
    if (!account) return err('account_gone');
    const id = await this.d.topUps.reserveId();
    let checkout;
    try {
      checkout = await this.d.gateway.startCheckout(account, { id, userId, amount, currency: 'USD' });
    } catch (e) {
      this.d.log.warn(
        { userId, topUpId: id, provider: this.d.gateway.provider, error: loggableError(e) },
        'billing provider could not open a checkout',
      );
      return err('provider_unavailable');
    }
    const created = newTopUp({
      id,
      userId,
      amount,
      provider: this.d.gateway.provider,
      payment: { trigger: 'checkout', checkoutUrl: checkout.keptCheckoutUrl ?? checkout.checkoutUrl },
      now: this.d.clock.now(),
    });
    if (!created.ok) return err({ code: 'invalid_amount', problems: created.error });
    return this.d.uow.transaction(
      async () => {
        await this.d.topUps.insert(created.value, checkout.providerReference);
        if (checkout.customerRef) {
          await this.d.profiles.remember(
            userId,
            this.d.gateway.provider,
            { customerRef: checkout.customerRef, paymentMethodRef: null },
            this.d.clock.now(),
          );
        }
        // The link to pay is answered as the provider gave it, once; the row keeps what reads may show.
        return ok<TopUp>({ ...created.value, checkoutUrl: checkout.checkoutUrl });
      },
      { concludes: true },
    );
  }
}
