import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A chat-app sender's calling line on a real chat app: the LiveKit trunk its calls leave through,
 * the SIP password the chat app issued for the number (sealed like SIP trunk passwords), and why
 * there is no line when setting it up failed. Senders of the sandbox never have one.
 */
export class ChatappCallingLine1795720000000 implements MigrationInterface {
  name = 'ChatappCallingLine1795720000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE chatapp_senders ADD COLUMN calling_trunk_id varchar(64) NULL`);
    await q.query(`ALTER TABLE chatapp_senders ADD COLUMN calling_sip_password text NULL`);
    await q.query(`ALTER TABLE chatapp_senders ADD COLUMN calling_error varchar(255) NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE chatapp_senders DROP COLUMN calling_error`);
    await q.query(`ALTER TABLE chatapp_senders DROP COLUMN calling_sip_password`);
    await q.query(`ALTER TABLE chatapp_senders DROP COLUMN calling_trunk_id`);
  }
}
