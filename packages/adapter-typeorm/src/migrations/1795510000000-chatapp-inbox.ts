import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The chat-app provider inbox: what the ingress acknowledged, kept until a worker
 * has handled it. The unique key is where the provider's retried and duplicated notifications stop.
 */
export class ChatappInbox1795510000000 implements MigrationInterface {
  name = 'ChatappInbox1795510000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE chatapp_inbox_items (
        id bigserial PRIMARY KEY,
        provider varchar(20) NOT NULL,
        provider_item_id varchar(512) NOT NULL,
        kind varchar(40) NOT NULL,
        item jsonb NOT NULL,
        received_at timestamptz NOT NULL,
        processed_at timestamptz NULL,
        UNIQUE (provider, provider_item_id)
      )`);
    await q.query(
      `CREATE INDEX chatapp_inbox_items_processed_idx ON chatapp_inbox_items (processed_at) WHERE processed_at IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS chatapp_inbox_items`);
  }
}
