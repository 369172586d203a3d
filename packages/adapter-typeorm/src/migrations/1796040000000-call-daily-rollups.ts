import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Daily roll-ups of an account's calls, kept exact by statement triggers on `calls` in the same
 * transaction as every insert, update and delete — whoever writes the call (make_call, the
 * runtime's end, a campaign, a test's SQL). The dashboard then reads at most a few thousand rows
 * for 90 days instead of every call.
 *
 * - `call_daily_stats` per (account, assistant, UTC day of creation, status): calls, answered,
 *   the answered calls' summed duration, cost, and completed calls whose `status` variable is true
 *   (the default goal variable);
 * - `call_daily_reasons` per (account, assistant, day, ended reason): calls.
 *
 * Each statement's old and new rows are turned into signed deltas, grouped and applied in key order
 * (so two transactions lock shared rows in the same order); a delta that sums to nothing — an update
 * that only appended a transcript — touches no roll-up row and takes no lock. Rows that fall to zero
 * stay and are skipped by readers. The p95 duration needs every duration, so it is read from the
 * calls through the partial indexes on answered calls added here.
 */
export class CallDailyRollups1796040000000 implements MigrationInterface {
  name = 'CallDailyRollups1796040000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE call_daily_stats (
        user_id bigint NOT NULL,
        assistant_id bigint NOT NULL,
        day date NOT NULL,
        status varchar(32) NOT NULL,
        calls integer NOT NULL,
        answered integer NOT NULL,
        answered_duration bigint NOT NULL,
        cost numeric(16, 4) NOT NULL,
        goal_met integer NOT NULL,
        PRIMARY KEY (user_id, day, assistant_id, status)
      )`);
    await q.query(`
      CREATE TABLE call_daily_reasons (
        user_id bigint NOT NULL,
        assistant_id bigint NOT NULL,
        day date NOT NULL,
        ended_reason varchar(255) NOT NULL,
        calls integer NOT NULL,
        PRIMARY KEY (user_id, day, assistant_id, ended_reason)
      )`);
    await q.query(`CREATE INDEX call_daily_stats_assistant_idx ON call_daily_stats (user_id, assistant_id, day)`);
    await q.query(`CREATE INDEX call_daily_reasons_assistant_idx ON call_daily_reasons (user_id, assistant_id, day)`);
    // plpgsql cannot name a transition table its trigger lacks: one function per operation, one delta statement.
    for (const [op, rows] of [
      ['insert', `SELECT 1 AS n, * FROM new_rows`],
      ['update', `SELECT -1 AS n, * FROM old_rows UNION ALL SELECT 1 AS n, * FROM new_rows`],
      ['delete', `SELECT -1 AS n, * FROM old_rows`],
    ] as const) {
      await q.query(`
        CREATE FUNCTION call_daily_rollup_${op}() RETURNS trigger LANGUAGE plpgsql AS $fn$
        BEGIN
          WITH d AS (
            SELECT n, user_id, assistant_id, (created_at AT TIME ZONE 'UTC')::date AS day, status,
                   answered_at IS NOT NULL AS answered, duration, cost, ended_reason,
                   (status = 'completed' AND lower(extracted_variables ->> 'status') = 'true') AS goal
              FROM (${rows}) r
          ),
          stats AS (
            INSERT INTO call_daily_stats AS s (user_id, assistant_id, day, status, calls, answered, answered_duration, cost, goal_met)
            SELECT user_id, assistant_id, day, status, sum(n), coalesce(sum(n) FILTER (WHERE answered), 0),
                   coalesce(sum(n * duration) FILTER (WHERE answered), 0), sum(n * cost), coalesce(sum(n) FILTER (WHERE goal), 0)
              FROM d GROUP BY user_id, assistant_id, day, status
            HAVING sum(n) <> 0 OR coalesce(sum(n) FILTER (WHERE answered), 0) <> 0
                OR coalesce(sum(n * duration) FILTER (WHERE answered), 0) <> 0 OR sum(n * cost) <> 0
                OR coalesce(sum(n) FILTER (WHERE goal), 0) <> 0
             ORDER BY user_id, day, assistant_id, status
            ON CONFLICT (user_id, day, assistant_id, status) DO UPDATE SET
              calls = s.calls + EXCLUDED.calls,
              answered = s.answered + EXCLUDED.answered,
              answered_duration = s.answered_duration + EXCLUDED.answered_duration,
              cost = s.cost + EXCLUDED.cost,
              goal_met = s.goal_met + EXCLUDED.goal_met
          )
          INSERT INTO call_daily_reasons AS r (user_id, assistant_id, day, ended_reason, calls)
          SELECT user_id, assistant_id, day, ended_reason, sum(n)
            FROM d WHERE ended_reason IS NOT NULL
           GROUP BY user_id, assistant_id, day, ended_reason HAVING sum(n) <> 0
           ORDER BY user_id, day, assistant_id, ended_reason
          ON CONFLICT (user_id, day, assistant_id, ended_reason) DO UPDATE SET calls = r.calls + EXCLUDED.calls;
          RETURN NULL;
        END $fn$`);
    }
    await q.query(`CREATE TRIGGER calls_daily_rollup_insert AFTER INSERT ON calls REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION call_daily_rollup_insert()`);
    await q.query(`CREATE TRIGGER calls_daily_rollup_update AFTER UPDATE ON calls
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION call_daily_rollup_update()`);
    await q.query(`CREATE TRIGGER calls_daily_rollup_delete AFTER DELETE ON calls REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION call_daily_rollup_delete()`);
    // A truncated calls table (tests, operators) leaves nothing to count.
    await q.query(`
      CREATE FUNCTION call_daily_rollup_truncate() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        TRUNCATE call_daily_stats, call_daily_reasons;
        RETURN NULL;
      END $fn$`);
    await q.query(`CREATE TRIGGER calls_daily_rollup_truncate AFTER TRUNCATE ON calls
      FOR EACH STATEMENT EXECUTE FUNCTION call_daily_rollup_truncate()`);
    // The calls already there, once (the triggers count every change from here on).
    await q.query(`
      INSERT INTO call_daily_stats (user_id, assistant_id, day, status, calls, answered, answered_duration, cost, goal_met)
      SELECT user_id, assistant_id, (created_at AT TIME ZONE 'UTC')::date, status, count(*),
             count(*) FILTER (WHERE answered_at IS NOT NULL),
             coalesce(sum(duration) FILTER (WHERE answered_at IS NOT NULL), 0), sum(cost),
             count(*) FILTER (WHERE status = 'completed' AND lower(extracted_variables ->> 'status') = 'true')
        FROM calls GROUP BY 1, 2, 3, 4`);
    await q.query(`
      INSERT INTO call_daily_reasons (user_id, assistant_id, day, ended_reason, calls)
      SELECT user_id, assistant_id, (created_at AT TIME ZONE 'UTC')::date, ended_reason, count(*)
        FROM calls WHERE ended_reason IS NOT NULL GROUP BY 1, 2, 3, 4`);
    // The p95 reads answered calls' durations from the index alone.
    await q.query(`CREATE INDEX calls_user_answered_duration_idx ON calls (user_id, created_at, duration)
      WHERE answered_at IS NOT NULL`);
    await q.query(`CREATE INDEX calls_user_assistant_answered_duration_idx ON calls (user_id, assistant_id, created_at, duration)
      WHERE answered_at IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX calls_user_assistant_answered_duration_idx`);
    await q.query(`DROP INDEX calls_user_answered_duration_idx`);
    for (const op of ['insert', 'update', 'delete', 'truncate']) {
      await q.query(`DROP TRIGGER calls_daily_rollup_${op} ON calls`);
      await q.query(`DROP FUNCTION call_daily_rollup_${op}()`);
    }
    await q.query(`DROP TABLE call_daily_reasons`);
    await q.query(`DROP TABLE call_daily_stats`);
  }
}
