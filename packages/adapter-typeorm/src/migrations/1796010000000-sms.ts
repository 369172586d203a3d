import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The SMS log. A row is written before the provider is asked: `settlement = 'pending'` holds its
 * cost against the balance (the partial index keeps that sum small), then it is `settled` (charged)
 * or `released` (never left, cost 0). The sandbox provider's own record of what it sent sits beside it.
 */
export class Sms1796010000000 implements MigrationInterface {
  name = 'Sms1796010000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE sms_messages (
        id bigserial PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        phone_number_id bigint NOT NULL,
        from_phone varchar(32) NOT NULL,
        to_phone varchar(32) NOT NULL,
        body text NOT NULL,
        encoding varchar(8) NOT NULL,
        segments integer NOT NULL,
        cost numeric(12, 4) NOT NULL,
        settlement varchar(8) NOT NULL,
        status varchar(16) NOT NULL,
        provider_message_id varchar(64) NULL,
        error_code varchar(32) NULL,
        error_message text NULL,
        request_id varchar(128) NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX sms_messages_user_idx ON sms_messages (user_id, id)`);
    await q.query(`CREATE INDEX sms_messages_pending_idx ON sms_messages (user_id) WHERE settlement = 'pending'`);
    await q.query(`
      CREATE TABLE sandbox_sms_sent (
        id bigserial PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        phone_number_id bigint NOT NULL,
        from_phone varchar(32) NOT NULL,
        to_phone varchar(32) NOT NULL,
        body text NOT NULL,
        provider_message_id varchar(64) NOT NULL,
        sent_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX sandbox_sms_sent_user_idx ON sandbox_sms_sent (user_id, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE sandbox_sms_sent`);
    await q.query(`DROP TABLE sms_messages`);
  }
}
