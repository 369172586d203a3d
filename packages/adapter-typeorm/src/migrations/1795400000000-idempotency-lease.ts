import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An in-flight Idempotency-Key claim carries a short lease that the running request renews. A
 * process killed before it answered no longer blocks its key for 24 hours: once the lease lapses,
 * a retry is processed as new. Rows without a lease (claimed before this migration) count as lapsed.
 */
export class IdempotencyLease1795400000000 implements MigrationInterface {
  name = 'IdempotencyLease1795400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE idempotency_keys ADD COLUMN lease_expires_at timestamptz NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE idempotency_keys DROP COLUMN lease_expires_at`);
  }
}
