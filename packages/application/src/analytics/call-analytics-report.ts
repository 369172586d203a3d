import {
  analyticsRange,
  AnalyticsRangeRefusal,
  callAnalytics,
  CallAnalytics,
  DEFAULT_GOAL_VARIABLE,
  err,
  ok,
  Result,
} from '@voiceplane/domain';
import { Clock } from '../ports';
import { CallAnalyticsRepository } from './ports';

export interface CallAnalyticsQuestion {
  readonly from?: Date;
  readonly to?: Date;
  readonly assistantId?: number;
  readonly goalVariable?: string;
}

export interface CallAnalyticsReport extends CallAnalytics {
  readonly from: Date;
  /** The last day of the range (inclusive). */
  readonly to: Date;
  readonly assistantId: number | null;
  readonly goalVariable: string;
}

/** The calls dashboard of one account over whole UTC days, for all its assistants or one. */
export class CallAnalyticsReports {
  constructor(
    private readonly counts: CallAnalyticsRepository,
    private readonly clock: Clock,
  ) {}

  async report(userId: number, q: CallAnalyticsQuestion): Promise<Result<CallAnalyticsReport, AnalyticsRangeRefusal>> {
    const range = analyticsRange({ from: q.from, to: q.to }, this.clock.now());
    if (!range.ok) return err(range.error);
    const goalVariable = q.goalVariable ?? DEFAULT_GOAL_VARIABLE;
    const assistantId = q.assistantId ?? null;
    const counts = await this.counts.count(userId, { range: range.value, assistantId, goalVariable });
    return ok({
      ...callAnalytics(range.value, counts),
      from: range.value.from,
      to: new Date(range.value.until.getTime() - 86_400_000),
      assistantId,
      goalVariable,
    });
  }
}
