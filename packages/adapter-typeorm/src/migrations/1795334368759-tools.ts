import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Mid-call tool invocations, recorded on their call (`tool_calls`) and keyed by the
 * runtime's invocation id so a repeated request replays the first result. `call_id` has no foreign
 * key: invocations are written on the live-call path, and the calls table belongs to its own capability.
 */
export class Tools1795334368759 implements MigrationInterface {
  name = 'Tools1795334368759';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE tool_invocations (
        id varchar(40) PRIMARY KEY,
        call_id bigint NOT NULL,
        user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        tool_id bigint NOT NULL,
        name varchar(64) NOT NULL,
        invocation_id varchar(128) NULL,
        ok boolean NULL,
        status_code integer NULL,
        duration_ms integer NULL,
        error varchar(32) NULL,
        result jsonb NULL,
        created_at timestamptz NOT NULL,
        completed_at timestamptz NULL
      )`);
    await q.query(
      `CREATE UNIQUE INDEX tool_invocations_runtime_id_uq ON tool_invocations (call_id, invocation_id) WHERE invocation_id IS NOT NULL`,
    );
    await q.query(`CREATE INDEX tool_invocations_call_idx ON tool_invocations (call_id, created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS tool_invocations`);
  }
}
