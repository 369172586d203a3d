import { UserRepository } from '../ports';
import { BillingAccount, BillingGateway } from './ports';
import { BillingProfileRepository } from './repositories';

/** An account as the billing provider knows it: the user plus what the provider keeps for them. */
export class BillingAccounts {
  constructor(
    private readonly users: UserRepository,
    private readonly profiles: BillingProfileRepository,
    private readonly gateway: BillingGateway,
  ) {}

  async of(userId: number): Promise<BillingAccount | null> {
    const [user, profile] = await Promise.all([
      this.users.findById(userId),
      this.profiles.find(userId, this.gateway.provider),
    ]);
    if (!user) return null;
    return {
      userId,
      email: user.email,
      name: user.name,
      customerRef: profile.customerRef,
      paymentMethodRef: profile.paymentMethodRef,
    };
  }
}
