import { err, ok, Result } from '../common/result';

const DAY_MS = 86_400_000;
/** The range a dashboard may ask for at once. */
export const MAX_ANALYTICS_DAYS = 366;
/** The range asked for when none is given: the last 30 days, today included. */
export const DEFAULT_ANALYTICS_DAYS = 30;
/** Ended reasons listed, most frequent first. */
export const TOP_ENDED_REASONS = 10;
/** The boolean the post-call evaluation sets when the call reached its goal. */
export const DEFAULT_GOAL_VARIABLE = 'status';

export type AnalyticsRangeRefusal = { code: 'range_reversed' } | { code: 'range_too_long'; maxDays: number };

/** Whole UTC days: `from` at 00:00 of its day, `until` at 00:00 of the day after `to`. */
export interface AnalyticsRange {
  readonly from: Date;
  readonly until: Date;
}

const startOfDay = (at: Date): Date => new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS);

/** The days asked for (either end may be missing), as whole UTC days. */
export function analyticsRange(
  asked: { from?: Date; to?: Date },
  now: Date,
): Result<AnalyticsRange, AnalyticsRangeRefusal> {
  const to = startOfDay(asked.to ?? (asked.from ? new Date(Math.max(asked.from.getTime(), now.getTime())) : now));
  const from = startOfDay(asked.from ?? new Date(to.getTime() - (DEFAULT_ANALYTICS_DAYS - 1) * DAY_MS));
  if (from > to) return err({ code: 'range_reversed' });
  const days = (to.getTime() - from.getTime()) / DAY_MS + 1;
  if (days > MAX_ANALYTICS_DAYS) return err({ code: 'range_too_long', maxDays: MAX_ANALYTICS_DAYS });
  return ok({ from, until: new Date(to.getTime() + DAY_MS) });
}

/** What the store counts, per day and status and over the whole range. */
export interface CallCounts {
  readonly days: readonly {
    readonly date: string;
    readonly status: string;
    readonly calls: number;
    readonly cost: number;
  }[];
  readonly totals: {
    readonly calls: number;
    readonly answered: number;
    readonly averageDuration: number | null;
    readonly p95Duration: number | null;
    readonly cost: number;
    readonly completed: number;
    readonly goalMet: number;
  };
  readonly endedReasons: readonly { readonly endedReason: string; readonly calls: number }[];
}

export interface CallAnalyticsDay {
  readonly date: string;
  readonly calls: number;
  readonly byStatus: Readonly<Record<string, number>>;
  readonly cost: number;
}

export interface CallAnalytics {
  readonly days: readonly CallAnalyticsDay[];
  readonly totals: CallCounts['totals'] & {
    readonly answerRate: number | null;
    readonly successRate: number | null;
  };
  readonly endedReasons: CallCounts['endedReasons'];
}

const money = (n: number): number => Math.round(n * 10_000) / 10_000;
const share = (part: number, whole: number): number | null =>
  whole === 0 ? null : Math.round((part / whole) * 10_000) / 10_000;

/**
 * The dashboard from the counts: every day of the range present (a quiet day shows zero), the
 * answer rate over all calls, the success rate over completed calls (the goal variable true).
 */
export function callAnalytics(range: AnalyticsRange, counts: CallCounts): CallAnalytics {
  const byDate = new Map<string, { calls: number; byStatus: Record<string, number>; cost: number }>();
  for (let at = range.from.getTime(); at < range.until.getTime(); at += DAY_MS) {
    byDate.set(new Date(at).toISOString().slice(0, 10), { calls: 0, byStatus: {}, cost: 0 });
  }
  for (const row of counts.days) {
    const day = byDate.get(row.date);
    if (!day) continue;
    day.calls += row.calls;
    day.byStatus[row.status] = (day.byStatus[row.status] ?? 0) + row.calls;
    day.cost += row.cost;
  }
  const t = counts.totals;
  return {
    days: [...byDate].map(([date, d]) => ({ date, calls: d.calls, byStatus: d.byStatus, cost: money(d.cost) })),
    totals: {
      ...t,
      cost: money(t.cost),
      averageDuration: t.averageDuration === null ? null : Math.round(t.averageDuration * 10) / 10,
      p95Duration: t.p95Duration === null ? null : Math.round(t.p95Duration * 10) / 10,
      answerRate: share(t.answered, t.calls),
      successRate: share(t.goalMet, t.completed),
    },
    endedReasons: counts.endedReasons.slice(0, TOP_ENDED_REASONS),
  };
}
