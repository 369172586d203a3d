import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Files in the media store outlive nothing they belong to. Whenever a media row goes — expired by
 * the retention sweep, or with its message, conversation or account through a cascade — a trigger
 * leaves its id here, in the same transaction; the sweep deletes the file and then the id. A
 * restart loses nothing: what is listed here is still to delete.
 */
export class ChatappMediaDeletions1795720001000 implements MigrationInterface {
  name = 'ChatappMediaDeletions1795720001000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE chatapp_media_deletions (media_id varchar(32) PRIMARY KEY, deleted_at timestamptz NOT NULL)`,
    );
    await q.query(`CREATE INDEX chatapp_media_created_idx ON chatapp_media (created_at)`);
    await q.query(`
      CREATE FUNCTION vp_chatapp_media_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO chatapp_media_deletions (media_id, deleted_at) VALUES (OLD.id, now()) ON CONFLICT (media_id) DO NOTHING;
        RETURN NULL;
      END
      $$`);
    await q.query(
      `CREATE TRIGGER chatapp_media_deleted AFTER DELETE ON chatapp_media FOR EACH ROW EXECUTE FUNCTION vp_chatapp_media_deleted()`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER chatapp_media_deleted ON chatapp_media`);
    await q.query(`DROP FUNCTION vp_chatapp_media_deleted()`);
    await q.query(`DROP INDEX chatapp_media_created_idx`);
    await q.query(`DROP TABLE chatapp_media_deletions`);
  }
}
