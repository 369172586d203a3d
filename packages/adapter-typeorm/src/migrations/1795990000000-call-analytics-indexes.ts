import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The calls dashboard reads an account's calls by creation time, for all its assistants or one:
 * without these it walks every call the account ever had.
 */
export class CallAnalyticsIndexes1795990000000 implements MigrationInterface {
  name = 'CallAnalyticsIndexes1795990000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX calls_user_created_idx ON calls (user_id, created_at)`);
    await q.query(`CREATE INDEX calls_user_assistant_created_idx ON calls (user_id, assistant_id, created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX calls_user_assistant_created_idx`);
    await q.query(`DROP INDEX calls_user_created_idx`);
  }
}
