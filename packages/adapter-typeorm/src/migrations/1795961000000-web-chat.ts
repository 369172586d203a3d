import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Web chats in the conversation model: a conversation gets a type (`chatapp` for every existing
 * one), web chats have no sender and no phone, keep the variables they were started with and, for
 * a customer's own channel, the customer identifier they are found by again. An assistant reply
 * keeps the functions it called. Every assistant gets a stable UUID, filled for the existing ones.
 */
export class WebChat1795961000000 implements MigrationInterface {
  name = 'WebChat1795961000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE assistants ADD COLUMN uuid uuid NOT NULL DEFAULT gen_random_uuid()`);
    await q.query(`CREATE UNIQUE INDEX assistants_uuid_uq ON assistants (uuid)`);
    await q.query(`ALTER TABLE conversations ALTER COLUMN sender_id DROP NOT NULL, ALTER COLUMN customer_phone DROP NOT NULL,
      ADD COLUMN type varchar(16) NOT NULL DEFAULT 'chatapp', ADD COLUMN variables jsonb NULL, ADD COLUMN external_identifier varchar(255) NULL`);
    await q.query(
      `CREATE UNIQUE INDEX conversations_external_uq ON conversations (assistant_id, external_identifier) WHERE type = 'external'`,
    );
    await q.query(`ALTER TABLE conversation_messages ADD COLUMN function_calls jsonb NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE conversation_messages DROP COLUMN function_calls`);
    await q.query(`DROP INDEX conversations_external_uq`);
    await q.query(`DELETE FROM conversations WHERE type <> 'chatapp'`);
    await q.query(`ALTER TABLE conversations DROP COLUMN external_identifier, DROP COLUMN variables, DROP COLUMN type,
      ALTER COLUMN customer_phone SET NOT NULL, ALTER COLUMN sender_id SET NOT NULL`);
    await q.query(`DROP INDEX assistants_uuid_uq`);
    await q.query(`ALTER TABLE assistants DROP COLUMN uuid`);
  }
}
