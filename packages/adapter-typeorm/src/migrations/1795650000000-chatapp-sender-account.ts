import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The business account a chat-app sender's number belongs to (WhatsApp: the WABA id). Account-wide
 * provider events name only the account, so every sender under it is found through this column.
 * Senders registered before it have none until they are registered again.
 */
export class ChatappSenderAccount1795650000000 implements MigrationInterface {
  name = 'ChatappSenderAccount1795650000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE chatapp_senders ADD COLUMN provider_account_ref varchar(128) NULL`);
    await q.query(`CREATE INDEX chatapp_senders_account_idx ON chatapp_senders (provider_account_ref)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX chatapp_senders_account_idx`);
    await q.query(`ALTER TABLE chatapp_senders DROP COLUMN provider_account_ref`);
  }
}
