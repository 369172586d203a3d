import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Leases on running automation runs: the worker executing a run holds it until `lease_until` and
 * renews it while it works; a sweeper takes over runs whose lease lapsed. A run queued for a worker
 * (async hook) or waiting for a step's retry has no owner and is due from `lease_until` on.
 */
export class AutomationRunLeases1795640000000 implements MigrationInterface {
  name = 'AutomationRunLeases1795640000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE automation_runs ADD COLUMN lease_owner varchar(40) NULL, ADD COLUMN lease_until timestamptz NULL`,
    );
    // Runs left RUNNING by a worker that died before leases existed are due for the sweeper at once.
    await q.query(`UPDATE automation_runs SET lease_until = now() WHERE status = 'RUNNING'`);
    await q.query(`CREATE INDEX automation_runs_lease_idx ON automation_runs (lease_until) WHERE status = 'RUNNING'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS automation_runs_lease_idx`);
    await q.query(`ALTER TABLE automation_runs DROP COLUMN lease_until, DROP COLUMN lease_owner`);
  }
}
