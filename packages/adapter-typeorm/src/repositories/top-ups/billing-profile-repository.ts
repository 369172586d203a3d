import { BillingProvider } from '@voiceplane/domain';
import { BillingProfile, BillingProfileRepository } from '@voiceplane/application';
import { Database } from '../../database';
import { BillingProfileRecord } from '../../records';

export class TypeormBillingProfileRepository implements BillingProfileRepository {
  constructor(private readonly db: Database) {}

  async find(userId: number, provider: BillingProvider): Promise<BillingProfile> {
    const r = await this.db.one<Pick<BillingProfileRecord, 'customer_reference' | 'payment_method_reference'>>(
      `SELECT customer_reference, payment_method_reference FROM billing_profiles WHERE user_id = $1 AND provider = $2`,
      [userId, provider],
    );
    return { customerRef: r?.customer_reference ?? null, paymentMethodRef: r?.payment_method_reference ?? null };
  }

  async remember(userId: number, provider: BillingProvider, p: BillingProfile, at: Date): Promise<void> {
    if (p.customerRef === null && p.paymentMethodRef === null) return;
    await this.db.query(
      `INSERT INTO billing_profiles (user_id, provider, customer_reference, payment_method_reference, updated_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (user_id, provider) DO UPDATE SET
         customer_reference = COALESCE(EXCLUDED.customer_reference, billing_profiles.customer_reference),
         payment_method_reference = COALESCE(EXCLUDED.payment_method_reference, billing_profiles.payment_method_reference),
         updated_at = EXCLUDED.updated_at`,
      [userId, provider, p.customerRef, p.paymentMethodRef, at],
    );
  }
}
