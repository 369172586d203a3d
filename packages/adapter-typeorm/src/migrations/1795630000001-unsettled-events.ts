import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Events published to the in-process bus (single-process mode) are "unsettled" until their
 * consumers are done: the bus is memory, and a process killed meanwhile would lose them. The relay
 * publishes again what stays unsettled too long. RabbitMQ holds its queues durably: never set there.
 */
export class UnsettledEvents1795630000001 implements MigrationInterface {
  name = 'UnsettledEvents1795630000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE outbox_events ADD COLUMN unsettled_since timestamptz NULL`);
    await q.query(
      `CREATE INDEX outbox_events_unsettled_idx ON outbox_events (unsettled_since) WHERE unsettled_since IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS outbox_events_unsettled_idx`);
    await q.query(`ALTER TABLE outbox_events DROP COLUMN unsettled_since`);
  }
}
