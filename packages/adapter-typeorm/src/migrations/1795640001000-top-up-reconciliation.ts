import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Reconciling auto top-ups whose provider answer was lost: when each was last checked, and why one
 * is left to an operator (listed for them until an operator settles it).
 */
export class TopUpReconciliation1795640001000 implements MigrationInterface {
  name = 'TopUpReconciliation1795640001000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE top_ups ADD COLUMN unreconcilable varchar(64) NULL, ADD COLUMN reconcile_checked_at timestamptz NULL`,
    );
    await q.query(
      `CREATE INDEX top_ups_reconcile_idx ON top_ups (id) WHERE trigger = 'auto' AND status IN ('pending', 'failed') AND unreconcilable IS NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS top_ups_reconcile_idx`);
    await q.query(`ALTER TABLE top_ups DROP COLUMN reconcile_checked_at, DROP COLUMN unreconcilable`);
  }
}
