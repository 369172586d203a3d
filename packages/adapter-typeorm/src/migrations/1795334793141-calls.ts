import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Calls and the runtime events accepted for them (idempotency by event id).
 *
 * A call keeps the runtime configuration it started with (`runtime_config`), so it needs no
 * foreign key to its assistant or number: stored calls outlive both. Sender, conversation
 * and automation-run references belong to capabilities that reference calls, not the reverse.
 * Documents are `json`, not `jsonb`: keys come back in the order the runtime and the user sent
 * them, which is the order receivers of the post-call webhook see.
 */
export class Calls1795334793141 implements MigrationInterface {
  name = 'Calls1795334793141';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE calls (
        id bigserial PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        assistant_id bigint NOT NULL,
        direction varchar(8) NOT NULL CHECK (direction IN ('outbound', 'inbound')),
        channel varchar(8) NOT NULL CHECK (channel IN ('phone', 'chatapp')),
        status varchar(16) NOT NULL CHECK (status IN ('initiated', 'queued', 'ringing', 'in-progress', 'completed', 'busy', 'no-answer', 'failed', 'canceled')),
        customer_phone varchar(64) NOT NULL,
        assistant_phone varchar(64) NULL,
        phone_number_id bigint NULL,
        sender_id bigint NULL,
        conversation_id uuid NULL,
        automation_run_id varchar(40) NULL,
        variables json NOT NULL DEFAULT '{}',
        extracted_variables json NOT NULL DEFAULT '{}',
        duration integer NOT NULL DEFAULT 0,
        cost numeric(12,4) NOT NULL DEFAULT 0,
        recording_url varchar(2048) NULL,
        ended_reason varchar(255) NULL,
        transcript_items json NOT NULL DEFAULT '[]',
        runtime_config json NOT NULL,
        provider_call_id varchar(128) NULL,
        created_at timestamptz NOT NULL,
        answered_at timestamptz NULL,
        finished_at timestamptz NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX calls_user_idx ON calls (user_id, id DESC)`);
    await q.query(`CREATE INDEX calls_user_assistant_idx ON calls (user_id, assistant_id, id DESC)`);
    await q.query(
      `CREATE UNIQUE INDEX calls_provider_call_uq ON calls (provider_call_id) WHERE provider_call_id IS NOT NULL`,
    );
    await q.query(`
      CREATE TABLE call_runtime_events (
        call_id bigint NOT NULL REFERENCES calls(id) ON DELETE CASCADE,
        event_id varchar(128) NOT NULL,
        type varchar(16) NOT NULL,
        status varchar(16) NOT NULL,
        received_at timestamptz NOT NULL,
        PRIMARY KEY (call_id, event_id)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS call_runtime_events`);
    await q.query(`DROP TABLE IF EXISTS calls`);
  }
}
