import { CallCounts } from '@voiceplane/domain';
import { CallAnalyticsFilter, CallAnalyticsRepository } from '@voiceplane/application';
import { Database } from '../../database';
import type { CallRecord } from '../../records/calls';

type DayRow = { date: string; status: CallRecord['status']; calls: number; cost: string };
type TotalsRow = {
  calls: number;
  answered: number;
  average_duration: number | null;
  p95_duration: number | null;
  cost: string | null;
  completed: number;
  goal_met: number;
};
type ReasonRow = { ended_reason: string; calls: number };
/** The one row the statement answers: each part as JSON built by PostgreSQL. */
type CountsRow = { days: DayRow[]; totals: TotalsRow; reasons: ReasonRow[] };

/**
 * The range's calls are read once (a materialised CTE over the `(user_id, created_at)` index, or
 * `(user_id, assistant_id, created_at)` with an assistant) and every figure is aggregated from it
 * in the same statement. Days are UTC days.
 */
const COUNTS_SQL = `
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

/** How many ended reasons the statement returns (the dashboard shows the top ones). */
const REASONS = 10;

export class TypeormCallAnalyticsRepository implements CallAnalyticsRepository {
  constructor(private readonly db: Database) {}

  async count(userId: number, filter: CallAnalyticsFilter): Promise<CallCounts> {
    const row = await this.db.one<CountsRow>(COUNTS_SQL, [
      userId,
      filter.range.from,
      filter.range.until,
      filter.goalVariable,
      filter.assistantId,
      REASONS,
    ]);
    if (row === null) throw new Error('the analytics statement answered no row');
    const t = row.totals;
    return {
      days: row.days.map((d) => ({ date: d.date, status: d.status, calls: d.calls, cost: Number(d.cost) })),
      totals: {
        calls: t.calls,
        answered: t.answered,
        averageDuration: t.average_duration === null ? null : Number(t.average_duration),
        p95Duration: t.p95_duration === null ? null : Number(t.p95_duration),
        cost: Number(t.cost ?? 0),
        completed: t.completed,
        goalMet: t.goal_met,
      },
      endedReasons: row.reasons.map((r) => ({ endedReason: r.ended_reason, calls: r.calls })),
    };
  }
}
