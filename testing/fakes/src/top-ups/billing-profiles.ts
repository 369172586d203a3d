import { BillingProvider } from '@voiceplane/domain';
import { BillingProfile, BillingProfileRepository } from '@voiceplane/application';

export class InMemoryBillingProfileRepository implements BillingProfileRepository {
  private readonly rows = new Map<string, BillingProfile>();

  async find(userId: number, provider: BillingProvider): Promise<BillingProfile> {
    return { ...(this.rows.get(`${userId}:${provider}`) ?? { customerRef: null, paymentMethodRef: null }) };
  }

  async remember(userId: number, provider: BillingProvider, p: BillingProfile, _at: Date): Promise<void> {
    const current = await this.find(userId, provider);
    this.rows.set(`${userId}:${provider}`, {
      customerRef: p.customerRef ?? current.customerRef,
      paymentMethodRef: p.paymentMethodRef ?? current.paymentMethodRef,
    });
  }
}
