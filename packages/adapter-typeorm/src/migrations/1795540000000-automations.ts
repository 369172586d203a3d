import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Automations: data tables and their rows, HTTP API connections (secret sealed by the
 * deployment cipher), automations with their immutable versions, and runs. A run's whole state is
 * one jsonb document beside the columns the lists filter and sort on. Paused runs are resumed by the
 * shared jobs table, keyed per run.
 */
export class Automations1795540000000 implements MigrationInterface {
  name = 'Automations1795540000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE automation_tables (
        id bigserial PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name varchar(255) NOT NULL,
        columns jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX automation_tables_user_idx ON automation_tables (user_id, id DESC)`);
    await q.query(`CREATE UNIQUE INDEX automation_tables_name_uq ON automation_tables (user_id, name)`);
    await q.query(`
      CREATE TABLE automation_table_rows (
        id bigserial PRIMARY KEY,
        table_id bigint NOT NULL REFERENCES automation_tables(id) ON DELETE CASCADE,
        values jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX automation_table_rows_table_idx ON automation_table_rows (table_id, id)`);
    await q.query(`
      CREATE TABLE automation_connections (
        id bigserial PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name varchar(255) NOT NULL,
        kind varchar(16) NOT NULL,
        base_url varchar(2048) NOT NULL,
        notes_path varchar(255) NOT NULL,
        auth_type varchar(16) NOT NULL,
        auth_header_name varchar(128) NULL,
        auth_value_sealed text NULL,
        status varchar(16) NOT NULL,
        last_checked_at timestamptz NULL,
        last_error varchar(255) NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX automation_connections_user_idx ON automation_connections (user_id, id DESC)`);
    await q.query(`
      CREATE TABLE automations (
        id varchar(40) PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name varchar(255) NOT NULL,
        template_key varchar(64) NOT NULL,
        status varchar(16) NOT NULL,
        binding_type varchar(16) NOT NULL,
        assistant_id bigint NULL,
        bound boolean NOT NULL DEFAULT false,
        webhook_token varchar(64) NULL,
        tool_id bigint NULL,
        live_version_id varchar(40) NULL,
        last_test jsonb NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX automations_user_idx ON automations (user_id, created_at)`);
    await q.query(
      `CREATE INDEX automations_assistant_idx ON automations (assistant_id) WHERE assistant_id IS NOT NULL`,
    );
    await q.query(`
      CREATE TABLE automation_versions (
        id varchar(40) PRIMARY KEY,
        automation_id varchar(40) NOT NULL REFERENCES automations(id) ON DELETE CASCADE,
        number integer NOT NULL,
        state varchar(16) NOT NULL,
        params jsonb NOT NULL,
        definition jsonb NOT NULL,
        restored_from_version_id varchar(40) NULL,
        test_run_id varchar(40) NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        published_at timestamptz NULL
      )`);
    await q.query(`CREATE UNIQUE INDEX automation_versions_number_uq ON automation_versions (automation_id, number)`);
    await q.query(`
      CREATE TABLE automation_runs (
        id varchar(40) PRIMARY KEY,
        automation_id varchar(40) NOT NULL REFERENCES automations(id) ON DELETE CASCADE,
        version_id varchar(40) NOT NULL,
        status varchar(16) NOT NULL,
        state jsonb NOT NULL,
        started_at timestamptz NOT NULL,
        event_id varchar(80) NULL
      )`);
    await q.query(`CREATE INDEX automation_runs_automation_idx ON automation_runs (automation_id, started_at)`);
    await q.query(
      `CREATE UNIQUE INDEX automation_runs_event_uq ON automation_runs (automation_id, event_id) WHERE event_id IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of [
      'automation_runs',
      'automation_versions',
      'automations',
      'automation_connections',
      'automation_table_rows',
      'automation_tables',
    ]) {
      await q.query(`DROP TABLE IF EXISTS ${t}`);
    }
  }
}
