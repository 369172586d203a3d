import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tables that several capabilities reference: the transactional outbox, mid-call tools (attached
 * to assistants, run by calls) and owned phone numbers (assigned to assistants, backing SIP trunks).
 * Each capability extends its own table in later migrations.
 */
export class SharedReferences1763800001000 implements MigrationInterface {
  name = 'SharedReferences1763800001000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE outbox_events (
        seq bigserial PRIMARY KEY,
        id varchar(40) NOT NULL UNIQUE,
        topic varchar(100) NOT NULL,
        payload jsonb NOT NULL,
        occurred_at timestamptz NOT NULL DEFAULT now(),
        published_at timestamptz NULL
      )`);
    await q.query(`CREATE INDEX outbox_events_unpublished_idx ON outbox_events (seq) WHERE published_at IS NULL`);
    await q.query(`
      CREATE TABLE tools (
        id bigserial PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name varchar(64) NOT NULL,
        description varchar(255) NOT NULL,
        type varchar(16) NOT NULL DEFAULT 'http',
        endpoint varchar(2048) NULL,
        method varchar(8) NULL,
        body_format varchar(8) NOT NULL DEFAULT 'json',
        timeout integer NOT NULL DEFAULT 10,
        headers jsonb NOT NULL DEFAULT '[]',
        static_fields jsonb NOT NULL DEFAULT '[]',
        schema jsonb NOT NULL DEFAULT '[]',
        automation_id varchar(40) NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX tools_user_idx ON tools (user_id, id DESC)`);
    await q.query(`
      CREATE TABLE phone_numbers (
        id bigserial PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        phone_number varchar(20) NOT NULL,
        type varchar(16) NOT NULL,
        country_code char(2) NOT NULL,
        nickname varchar(50) NULL,
        sms_capable boolean NOT NULL DEFAULT false,
        monthly_price numeric(10,4) NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX phone_numbers_user_idx ON phone_numbers (user_id, id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['phone_numbers', 'tools', 'outbox_events']) await q.query(`DROP TABLE IF EXISTS ${t}`);
  }
}
