import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Voiceplane's own copies of what customers send. A row exists from the moment the message is
 * stored; the file itself lives in the media store under the row's id. `media_error` on the
 * message says why the copy is missing while it is retried.
 */
export class ChatappMedia1795650001000 implements MigrationInterface {
  name = 'ChatappMedia1795650001000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE chatapp_media (
        id varchar(32) PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        sender_id bigint NOT NULL,
        message_id bigint NOT NULL REFERENCES conversation_messages(id) ON DELETE CASCADE,
        source_kind varchar(8) NOT NULL,
        source_ref text NOT NULL,
        status varchar(8) NOT NULL,
        content_type varchar(255) NULL,
        size_bytes integer NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX chatapp_media_message_idx ON chatapp_media (message_id)`);
    await q.query(`ALTER TABLE conversation_messages ADD COLUMN media_error varchar(255) NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE conversation_messages DROP COLUMN media_error`);
    await q.query(`DROP TABLE chatapp_media`);
  }
}
