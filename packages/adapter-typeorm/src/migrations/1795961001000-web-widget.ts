import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The embeddable widget: per assistant a public widget key (on/off, rotated by replacing it), the
 * origins allowed to embed it and a daily spending cap; each widget conversation keeps the hash of
 * its visitor's token, never the token.
 */
export class WebWidget1795961001000 implements MigrationInterface {
  name = 'WebWidget1795961001000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE widget_settings (
        assistant_id bigint PRIMARY KEY REFERENCES assistants(id) ON DELETE CASCADE,
        user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        widget_key varchar(64) NOT NULL,
        enabled boolean NOT NULL,
        allowed_origins jsonb NOT NULL,
        daily_cap numeric(12,4) NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE UNIQUE INDEX widget_settings_key_uq ON widget_settings (widget_key)`);
    await q.query(`ALTER TABLE conversations ADD COLUMN visitor_token_hash char(64) NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE conversations DROP COLUMN visitor_token_hash`);
    await q.query(`DROP TABLE widget_settings`);
  }
}
