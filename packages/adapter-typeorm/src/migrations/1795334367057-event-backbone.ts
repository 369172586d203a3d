import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The event backbone: processed-event records (idempotent consumers), the durable job table
 * (scheduler), outgoing webhook deliveries with their attempts, and NOTIFY triggers so relays and
 * schedulers wake as soon as work commits instead of waiting for their next poll.
 */
export class EventBackbone1795334367057 implements MigrationInterface {
  name = 'EventBackbone1795334367057';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE processed_events (
        consumer varchar(100) NOT NULL,
        event_id varchar(40) NOT NULL,
        processed_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (consumer, event_id)
      )`);
    await q.query(`CREATE INDEX processed_events_age_idx ON processed_events (processed_at)`);

    await q.query(`
      CREATE TABLE scheduled_jobs (
        id bigserial PRIMARY KEY,
        kind varchar(100) NOT NULL,
        key varchar(200) NULL,
        payload jsonb NOT NULL,
        run_at timestamptz NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        locked_until timestamptz NULL,
        lease_token varchar(40) NULL,
        last_error text NULL,
        buried_at timestamptz NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX scheduled_jobs_key_uq ON scheduled_jobs (key)`);
    await q.query(`CREATE INDEX scheduled_jobs_due_idx ON scheduled_jobs (run_at) WHERE buried_at IS NULL`);

    await q.query(`
      CREATE TABLE webhook_deliveries (
        seq bigserial PRIMARY KEY,
        id varchar(40) NOT NULL UNIQUE,
        user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        event_type varchar(64) NOT NULL,
        webhook_id varchar(40) NOT NULL UNIQUE,
        target_url varchar(2048) NOT NULL,
        body text NOT NULL,
        status varchar(16) NOT NULL,
        attempts_count integer NOT NULL DEFAULT 0,
        round_attempts integer NOT NULL DEFAULT 0,
        max_attempts integer NOT NULL,
        next_attempt_at timestamptz NULL,
        last_attempt_at timestamptz NULL,
        last_status_code integer NULL,
        last_error varchar(32) NULL,
        source_type varchar(16) NOT NULL,
        source_id bigint NOT NULL,
        subject jsonb NULL,
        request_id varchar(128) NULL,
        locked_until timestamptz NULL,
        lease_token varchar(40) NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX webhook_deliveries_user_idx ON webhook_deliveries (user_id, seq DESC)`);
    await q.query(
      `CREATE INDEX webhook_deliveries_pending_source_idx ON webhook_deliveries (user_id, source_type, source_id) WHERE status = 'pending'`,
    );
    await q.query(
      `CREATE INDEX webhook_deliveries_settled_age_idx ON webhook_deliveries (updated_at) WHERE status <> 'pending'`,
    );
    await q.query(`
      CREATE TABLE webhook_delivery_attempts (
        delivery_seq bigint NOT NULL REFERENCES webhook_deliveries(seq) ON DELETE CASCADE,
        number integer NOT NULL,
        at timestamptz NOT NULL,
        status_code integer NULL,
        duration_ms integer NOT NULL,
        error varchar(32) NULL,
        response_excerpt text NULL,
        PRIMARY KEY (delivery_seq, number)
      )`);

    // Published events are kept a while for inspection, then swept (by age).
    await q.query(
      `CREATE INDEX outbox_events_published_age_idx ON outbox_events (published_at) WHERE published_at IS NOT NULL`,
    );
    // NOTIFY is delivered at commit, so a listener never looks before the rows are visible.
    // Identical notifications in one transaction collapse into one.
    await q.query(`
      CREATE FUNCTION vp_notify_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('vp_outbox', '');
        RETURN NULL;
      END
      $$`);
    await q.query(
      `CREATE TRIGGER outbox_events_notify AFTER INSERT ON outbox_events FOR EACH STATEMENT EXECUTE FUNCTION vp_notify_outbox()`,
    );
    await q.query(`
      CREATE FUNCTION vp_notify_jobs() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('vp_jobs', '');
        RETURN NULL;
      END
      $$`);
    // Only jobs due now: later ones are found by the scheduler's regular look.
    await q.query(`
      CREATE TRIGGER scheduled_jobs_notify AFTER INSERT OR UPDATE OF run_at ON scheduled_jobs
      FOR EACH ROW WHEN (NEW.run_at <= now()) EXECUTE FUNCTION vp_notify_jobs()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER IF EXISTS scheduled_jobs_notify ON scheduled_jobs`);
    await q.query(`DROP TRIGGER IF EXISTS outbox_events_notify ON outbox_events`);
    await q.query(`DROP FUNCTION IF EXISTS vp_notify_jobs()`);
    await q.query(`DROP FUNCTION IF EXISTS vp_notify_outbox()`);
    await q.query(`DROP INDEX IF EXISTS outbox_events_published_age_idx`);
    for (const t of ['webhook_delivery_attempts', 'webhook_deliveries', 'scheduled_jobs', 'processed_events'])
      await q.query(`DROP TABLE IF EXISTS ${t}`);
  }
}
