import { CallCounts } from '@voiceplane/domain';
import { CallAnalyticsFilter, CallAnalyticsRepository } from '@voiceplane/application';
import { Database } from '../../database';
import type { CallRecord } from '../../records/calls';
import { RAW_COUNTS_SQL, ROLLUP_COUNTS_SQL } from './call-analytics-sql';

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

/** How many ended reasons the statement returns (the dashboard shows the top ones). */
const REASONS = 10;

const DAY_MS = 86_400_000;
const wholeDays = (...at: Date[]): boolean => at.every((d) => d.getTime() % DAY_MS === 0);
/** Years 1–9999 only: an ISO day outside them (`+010000-01-01`) is not a date PostgreSQL reads, and holds no call. */
const FIRST_DAY = Date.parse('0001-01-01T00:00:00Z');
const LAST_DAY = Date.parse('9999-12-31T00:00:00Z');
const dayOf = (at: Date): string =>
  new Date(Math.min(Math.max(at.getTime(), FIRST_DAY), LAST_DAY)).toISOString().slice(0, 10);

/** The dashboard's counts: from the daily roll-ups for whole UTC days (what the route asks), else from the calls. */
export class TypeormCallAnalyticsRepository implements CallAnalyticsRepository {
  constructor(private readonly db: Database) {}

  async count(userId: number, filter: CallAnalyticsFilter): Promise<CallCounts> {
    const { from, until } = filter.range;
    if (!wholeDays(from, until)) return this.countFromCalls(userId, filter);
    const params = [userId, dayOf(from), dayOf(until), filter.goalVariable, filter.assistantId, REASONS, from, until];
    return counts(await this.db.one<CountsRow>(ROLLUP_COUNTS_SQL, params));
  }

  /** The same counts read from every call of the range (what the roll-ups must always agree with). */
  async countFromCalls(userId: number, filter: CallAnalyticsFilter): Promise<CallCounts> {
    const { from, until } = filter.range;
    return counts(
      await this.db.one<CountsRow>(RAW_COUNTS_SQL, [
        userId,
        from,
        until,
        filter.goalVariable,
        filter.assistantId,
        REASONS,
      ]),
    );
  }
}

function counts(row: CountsRow | null): CallCounts {
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
