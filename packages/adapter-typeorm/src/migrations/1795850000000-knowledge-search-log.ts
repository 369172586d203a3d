import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The tool log also keeps the knowledge-base searches an answer used, so a user can see which
 * passages the assistant was given. A search is made by no tool (it names its knowledge base
 * instead) and an entry may belong to a chat conversation rather than a call; exactly one of each
 * pair is set. Neither new id has a foreign key, like `call_id`: the log is written on the live
 * path and outlives a deleted knowledge base (the account's deletion still removes it).
 */
export class KnowledgeSearchLog1795850000000 implements MigrationInterface {
  name = 'KnowledgeSearchLog1795850000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE tool_invocations
        ALTER COLUMN call_id DROP NOT NULL,
        ALTER COLUMN tool_id DROP NOT NULL,
        ADD COLUMN conversation_id bigint NULL,
        ADD COLUMN knowledge_base_id bigint NULL`);
    await q.query(
      `ALTER TABLE tool_invocations ADD CONSTRAINT tool_invocations_owner_ck CHECK ((call_id IS NULL) <> (conversation_id IS NULL))`,
    );
    await q.query(
      `ALTER TABLE tool_invocations ADD CONSTRAINT tool_invocations_subject_ck CHECK ((tool_id IS NULL) <> (knowledge_base_id IS NULL))`,
    );
    await q.query(
      `CREATE INDEX tool_invocations_conversation_idx ON tool_invocations (conversation_id, created_at) WHERE conversation_id IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS tool_invocations_conversation_idx`);
    await q.query(`DELETE FROM tool_invocations WHERE call_id IS NULL OR tool_id IS NULL`);
    await q.query(
      `ALTER TABLE tool_invocations DROP CONSTRAINT tool_invocations_subject_ck, DROP CONSTRAINT tool_invocations_owner_ck`,
    );
    await q.query(`
      ALTER TABLE tool_invocations
        DROP COLUMN knowledge_base_id,
        DROP COLUMN conversation_id,
        ALTER COLUMN tool_id SET NOT NULL,
        ALTER COLUMN call_id SET NOT NULL`);
  }
}
