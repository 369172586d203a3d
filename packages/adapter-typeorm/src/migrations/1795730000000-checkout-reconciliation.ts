import { MigrationInterface, QueryRunner } from 'typeorm';

/** Checkout top-ups whose provider event never came are reconciled too: the sweep's index covers every pending top-up. */
export class CheckoutReconciliation1795730000000 implements MigrationInterface {
  name = 'CheckoutReconciliation1795730000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS top_ups_reconcile_idx`);
    await q.query(
      `CREATE INDEX top_ups_reconcile_idx ON top_ups (id) WHERE status IN ('pending', 'failed') AND unreconcilable IS NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS top_ups_reconcile_idx`);
    await q.query(
      `CREATE INDEX top_ups_reconcile_idx ON top_ups (id) WHERE trigger = 'auto' AND status IN ('pending', 'failed') AND unreconcilable IS NULL`,
    );
  }
}
