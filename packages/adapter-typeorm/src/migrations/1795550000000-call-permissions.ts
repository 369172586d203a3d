import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Chat-app call permissions and the account voice webhook. `asks` keeps the request times that still count
 * against the 1-per-24-h and 2-per-7-days limits; `asks_counted_after` is the last connected call,
 * before which no ask counts. `expired` is never stored: a temporary grant reads as expired.
 */
export class CallPermissions1795550000000 implements MigrationInterface {
  name = 'CallPermissions1795550000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE chatapp_call_permissions (
        sender_id bigint NOT NULL,
        customer_phone varchar(20) NOT NULL,
        status varchar(16) NOT NULL CHECK (status IN ('none', 'pending', 'granted', 'rejected', 'revoked')),
        is_permanent boolean NOT NULL DEFAULT false,
        expires_at timestamptz NULL,
        requested_at timestamptz NULL,
        responded_at timestamptz NULL,
        asks timestamptz[] NOT NULL DEFAULT '{}',
        asks_counted_after timestamptz NULL,
        PRIMARY KEY (sender_id, customer_phone)
      )`);
    // The account's chat-app voice webhook: no row while none is set.
    await q.query(`
      CREATE TABLE chatapp_voice_webhooks (
        user_id bigint PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
        webhook_url text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE chatapp_voice_webhooks`);
    await q.query(`DROP TABLE chatapp_call_permissions`);
  }
}
