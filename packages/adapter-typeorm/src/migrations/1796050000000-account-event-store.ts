import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The account event stream across api instances.
 *
 * - `event_stream_leases`: one row per open stream, held by the instance serving it until
 *   `expires_at` and renewed by that instance's heartbeat. The per-account limit counts the rows
 *   that have not lapsed, so a dead instance's streams stop counting once their leases lapse.
 * - `account_events`: the backlog a reader resumes from with `Last-Event-ID`, written by every
 *   instance that hears the event (the first write wins) and trimmed to 15 minutes and 200 events
 *   per account by a sweep; `seq` orders an account's events as they were first stored.
 */
export class AccountEventStore1796050000000 implements MigrationInterface {
  name = 'AccountEventStore1796050000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE event_stream_leases (
        id varchar(40) PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        instance varchar(40) NOT NULL,
        expires_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX event_stream_leases_user_idx ON event_stream_leases (user_id)`);
    await q.query(`CREATE INDEX event_stream_leases_instance_idx ON event_stream_leases (instance)`);
    await q.query(`
      CREATE TABLE account_events (
        seq bigserial PRIMARY KEY,
        id varchar(64) NOT NULL,
        user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        type varchar(32) NOT NULL,
        at timestamptz NOT NULL,
        data jsonb NOT NULL
      )`);
    await q.query(`CREATE UNIQUE INDEX account_events_id_key ON account_events (id)`);
    await q.query(`CREATE INDEX account_events_user_idx ON account_events (user_id, seq)`);
    await q.query(`CREATE INDEX account_events_at_idx ON account_events (at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS account_events`);
    await q.query(`DROP TABLE IF EXISTS event_stream_leases`);
  }
}
