import { MigrationInterface, QueryRunner } from 'typeorm';

/** The URL an assistant's inbound calls are reported to when they end (the post-call body), beside its post-call webhook. */
export class AssistantInboundWebhook1796000000000 implements MigrationInterface {
  name = 'AssistantInboundWebhook1796000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE assistants ADD COLUMN inbound_webhook_url varchar(2048) NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE assistants DROP COLUMN inbound_webhook_url`);
  }
}
