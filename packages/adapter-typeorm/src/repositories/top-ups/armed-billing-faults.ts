import { ArmedBillingFaults } from '@voiceplane/application';
import { Database } from '../../database';
import { SandboxBillingFaultRecord } from '../../records';

/** The sandbox billing provider's `billing_charge` faults, in the database so the api and the worker share them. */
export class PostgresArmedBillingFaults implements ArmedBillingFaults {
  constructor(private readonly db: Database) {}

  async arm(userId: number, count: number): Promise<number> {
    await this.db.query(
      `INSERT INTO sandbox_billing_faults (user_id, remaining) VALUES ($1, $2) ON CONFLICT (user_id) DO UPDATE SET remaining = EXCLUDED.remaining`,
      [userId, count],
    );
    return count;
  }

  async claim(userId: number): Promise<boolean> {
    // Raw SQL: a conditional decrement claims one fault atomically, whoever else is claiming.
    const rows = await this.db.query<Pick<SandboxBillingFaultRecord, 'remaining'>>(
      `UPDATE sandbox_billing_faults SET remaining = remaining - 1 WHERE user_id = $1 AND remaining > 0 RETURNING remaining`,
      [userId],
    );
    return rows.length > 0;
  }
}
