import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Chat-app sends between their reservation and their settlement, so no transaction stays open
 * while the provider answers. An open row holds its price against the user's balance; the partial
 * index keeps the per-send sum of open rows and the sweep's scan small.
 */
export class ChatappSendReservations1795760000000 implements MigrationInterface {
  name = 'ChatappSendReservations1795760000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE chatapp_send_reservations (
        id bigserial PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        sender_id bigint NOT NULL,
        recipient_phone varchar(32) NOT NULL,
        message_sid varchar(34) NOT NULL,
        amount numeric(12, 4) NOT NULL,
        from_allowance boolean NOT NULL,
        message jsonb NOT NULL,
        outcome varchar(8) NULL,
        created_at timestamptz NOT NULL,
        closed_at timestamptz NULL
      )`);
    await q.query(`CREATE UNIQUE INDEX chatapp_send_reservations_sid_uq ON chatapp_send_reservations (message_sid)`);
    await q.query(
      `CREATE INDEX chatapp_send_reservations_open_idx ON chatapp_send_reservations (user_id) WHERE outcome IS NULL`,
    );
    await q.query(
      `CREATE INDEX chatapp_send_reservations_sweep_idx ON chatapp_send_reservations (created_at) WHERE outcome IS NULL`,
    );
    // The sweep asks the sandbox about one send by its id.
    await q.query(`CREATE INDEX sandbox_chatapp_sent_provider_idx ON sandbox_chatapp_sent (provider_message_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX sandbox_chatapp_sent_provider_idx`);
    await q.query(`DROP TABLE chatapp_send_reservations`);
  }
}
