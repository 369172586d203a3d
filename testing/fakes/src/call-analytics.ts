import { CallCounts } from '@voiceplane/domain';
import { CallAnalyticsFilter, CallAnalyticsRepository } from '@voiceplane/application';
import { InMemoryCallRepository } from './calls';

/** p-th percentile with linear interpolation between the closest ranks, as PostgreSQL's `percentile_cont`. */
function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const at = (sorted.length - 1) * p;
  const low = Math.floor(at);
  return sorted[low] + (sorted[Math.min(low + 1, sorted.length - 1)] - sorted[low]) * (at - low);
}

/** The calls dashboard's counts over the in-memory calls, as the PostgreSQL statement computes them. */
export class InMemoryCallAnalytics implements CallAnalyticsRepository {
  constructor(private readonly calls: InMemoryCallRepository) {}

  async count(userId: number, f: CallAnalyticsFilter): Promise<CallCounts> {
    const calls = this.calls
      .allCalls()
      .filter(
        (c) =>
          c.userId === userId &&
          c.createdAt >= f.range.from &&
          c.createdAt < f.range.until &&
          (f.assistantId === null || c.assistantId === f.assistantId),
      );
    const days = new Map<string, { date: string; status: string; calls: number; cost: number }>();
    for (const c of calls) {
      const date = c.createdAt.toISOString().slice(0, 10);
      const row = days.get(`${date} ${c.status}`) ?? { date, status: c.status, calls: 0, cost: 0 };
      row.calls += 1;
      row.cost += c.cost;
      days.set(`${date} ${c.status}`, row);
    }
    const answered = calls.filter((c) => c.answeredAt !== null);
    const durations = answered.map((c) => c.duration).sort((a, b) => a - b);
    const completed = calls.filter((c) => c.status === 'completed');
    const reasons = new Map<string, number>();
    for (const c of calls)
      if (c.endedReason !== null) reasons.set(c.endedReason, (reasons.get(c.endedReason) ?? 0) + 1);
    return {
      days: [...days.values()].sort((a, b) =>
        a.date === b.date ? a.status.localeCompare(b.status) : a.date.localeCompare(b.date),
      ),
      totals: {
        calls: calls.length,
        answered: answered.length,
        averageDuration: durations.length === 0 ? null : durations.reduce((a, b) => a + b, 0) / durations.length,
        p95Duration: percentile(durations, 0.95),
        cost: calls.reduce((sum, c) => sum + c.cost, 0),
        completed: completed.length,
        goalMet: completed.filter((c) => String(c.extractedVariables[f.goalVariable]).toLowerCase() === 'true').length,
      },
      endedReasons: [...reasons]
        .map(([endedReason, n]) => ({ endedReason, calls: n }))
        .sort((a, b) => b.calls - a.calls || (a.endedReason < b.endedReason ? -1 : 1))
        .slice(0, 10),
    };
  }
}
