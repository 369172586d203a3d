import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Authenticated requests without a durable write or a credential read each:
 * - rate-limit counters become UNLOGGED (no WAL per lease; a crash empties the table, which can
 *   only admit fewer requests, never more) and record the size of the last grant, which a lease
 *   upsert returns because RETURNING sees only the new row;
 * - a change that revokes or alters a principal (key deleted, session revoked or shortened, user
 *   disabled, deleted or given a new plan) sends NOTIFY on `vp_principals` (payload: the user id) so every instance drops its cached
 *   principals of that user at once. Triggers, not the writers: every write path is covered, the
 *   CLI and features still to come included. These writes are rare, so the commit serialisation a
 *   NOTIFY costs does not matter here (unlike the outbox, see OutboxPolling); `last_used_at`
 *   touches and balance updates fire nothing.
 */
export class RequestFastPath1795530000000 implements MigrationInterface {
  name = 'RequestFastPath1795530000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE rate_limit_counters ADD COLUMN last_grant integer NOT NULL DEFAULT 0`);
    await q.query(`ALTER TABLE rate_limit_counters SET UNLOGGED`);
    await q.query(`
      CREATE FUNCTION vp_notify_principals() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('vp_principals', to_jsonb(OLD) ->> TG_ARGV[0]);
        RETURN NULL;
      END
      $$`);
    const triggers: Array<[table: string, events: string, userColumn: string]> = [
      ['api_keys', 'DELETE OR UPDATE OF token_hash, user_id', 'user_id'],
      ['sessions', 'DELETE OR UPDATE OF revoked_at, expires_at, token_hash, user_id', 'user_id'],
      ['users', 'DELETE OR UPDATE OF disabled, plan', 'id'],
    ];
    for (const [table, events, userColumn] of triggers) {
      await q.query(
        `CREATE TRIGGER ${table}_principal_notify AFTER ${events} ON ${table} FOR EACH ROW EXECUTE FUNCTION vp_notify_principals('${userColumn}')`,
      );
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['api_keys', 'sessions', 'users'])
      await q.query(`DROP TRIGGER IF EXISTS ${table}_principal_notify ON ${table}`);
    await q.query(`DROP FUNCTION IF EXISTS vp_notify_principals()`);
    await q.query(`ALTER TABLE rate_limit_counters SET LOGGED`);
    await q.query(`ALTER TABLE rate_limit_counters DROP COLUMN last_grant`);
  }
}
