/**
 * The dashboard's figures straight from the calls: the range's calls are read once (a materialised
 * CTE over the `(user_id, created_at)` index, or `(user_id, assistant_id, created_at)` with an
 * assistant) and every figure is aggregated from it in the same statement. Days are UTC days.
 * Used for ranges that are not whole days, and as the reference the roll-up is tested against.
 */
export const RAW_COUNTS_SQL = `
  WITH c AS MATERIALIZED (
    SELECT status, answered_at IS NOT NULL AS answered, duration, cost, ended_reason,
           (created_at AT TIME ZONE 'UTC')::date AS day,
           -- Parsing the (json) variables is the costliest part of a row: only completed calls count.
           CASE WHEN status = 'completed' THEN extracted_variables ->> $4::text END AS goal
      FROM calls
     WHERE user_id = $1 AND created_at >= $2 AND created_at < $3 AND ($5::bigint IS NULL OR assistant_id = $5::bigint)
  )
  SELECT
    (SELECT coalesce(json_agg(d ORDER BY d.date, d.status), '[]'::json)
       FROM (SELECT day::text AS date, status, count(*)::int AS calls, sum(cost)::text AS cost FROM c GROUP BY day, status) d) AS days,
    (SELECT json_build_object(
        'calls', count(*)::int,
        'answered', (count(*) FILTER (WHERE answered))::int,
        'average_duration', avg(duration) FILTER (WHERE answered),
        'p95_duration', percentile_cont(0.95) WITHIN GROUP (ORDER BY duration) FILTER (WHERE answered),
        'cost', sum(cost)::text,
        'completed', (count(*) FILTER (WHERE status = 'completed'))::int,
        'goal_met', (count(*) FILTER (WHERE status = 'completed' AND lower(goal) = 'true'))::int)
       FROM c) AS totals,
    (SELECT coalesce(json_agg(r ORDER BY r.calls DESC, r.ended_reason), '[]'::json)
       FROM (SELECT ended_reason, count(*)::int AS calls FROM c WHERE ended_reason IS NOT NULL
              GROUP BY ended_reason ORDER BY count(*) DESC, ended_reason LIMIT $6) r) AS reasons`;

/**
 * The same figures from the daily roll-ups (migration CallDailyRollups): days, counts, cost, the
 * average duration, the default goal and the ended reasons are sums of at most one row per day,
 * assistant and status (or reason). The p95 needs every answered duration: those come from the
 * covering partial index on answered calls, without reading the calls' rows. A goal variable other
 * than the default is counted over the range's completed calls.
 * $1 user, $2 first day, $3 day after the last, $4 goal variable, $5 assistant or null, $6 reasons,
 * $7/$8 the same range as timestamps.
 */
export const ROLLUP_COUNTS_SQL = `
  WITH s AS MATERIALIZED (
    SELECT day, status, calls, answered, answered_duration, cost, goal_met
      FROM call_daily_stats
     WHERE user_id = $1 AND day >= $2::date AND day < $3::date AND ($5::bigint IS NULL OR assistant_id = $5::bigint)
  )
  SELECT
    (SELECT coalesce(json_agg(d ORDER BY d.date, d.status), '[]'::json)
       FROM (SELECT day::text AS date, status, sum(calls)::int AS calls, sum(cost)::text AS cost
               FROM s GROUP BY day, status HAVING sum(calls) > 0) d) AS days,
    (SELECT json_build_object(
        'calls', coalesce(sum(calls), 0)::int,
        'answered', coalesce(sum(answered), 0)::int,
        'average_duration', CASE WHEN sum(answered) > 0 THEN sum(answered_duration)::numeric / sum(answered)::numeric END,
        'p95_duration', (SELECT percentile_cont(0.95) WITHIN GROUP (ORDER BY duration)
                           FROM calls
                          WHERE user_id = $1 AND created_at >= $7 AND created_at < $8 AND answered_at IS NOT NULL
                            AND ($5::bigint IS NULL OR assistant_id = $5::bigint)),
        'cost', sum(cost)::text,
        'completed', coalesce(sum(calls) FILTER (WHERE status = 'completed'), 0)::int,
        'goal_met', CASE WHEN $4::text = 'status' THEN coalesce(sum(goal_met), 0)::int
                         ELSE (SELECT count(*)::int FROM calls
                                WHERE user_id = $1 AND created_at >= $7 AND created_at < $8 AND status = 'completed'
                                  AND ($5::bigint IS NULL OR assistant_id = $5::bigint)
                                  AND lower(extracted_variables ->> $4::text) = 'true') END)
       FROM s) AS totals,
    (SELECT coalesce(json_agg(r ORDER BY r.calls DESC, r.ended_reason), '[]'::json)
       FROM (SELECT ended_reason, sum(calls)::int AS calls FROM call_daily_reasons
              WHERE user_id = $1 AND day >= $2::date AND day < $3::date AND ($5::bigint IS NULL OR assistant_id = $5::bigint)
              GROUP BY ended_reason HAVING sum(calls) > 0
              ORDER BY sum(calls) DESC, ended_reason LIMIT $6) r) AS reasons`;
