import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the chat app itself reports about a chat-app call (WhatsApp's `calls` webhooks), one row per
 * call. The chat app's call id is bound to one call only (unique), and a call takes one chat app
 * call id (the key).
 */
export class ChatappCallReports1795810000000 implements MigrationInterface {
  name = 'ChatappCallReports1795810000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE chatapp_call_reports (
        call_id bigint PRIMARY KEY REFERENCES calls(id) ON DELETE CASCADE,
        meta_call_id varchar(128) NOT NULL UNIQUE,
        connect_at timestamptz NULL,
        terminate_at timestamptz NULL,
        duration integer NULL,
        status varchar(32) NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE chatapp_call_reports`);
  }
}
