import { AnalyticsRange, CallCounts } from '@voiceplane/domain';

export interface CallAnalyticsFilter {
  readonly range: AnalyticsRange;
  readonly assistantId: number | null;
  /** The extracted variable whose `true` marks a completed call's goal as met. */
  readonly goalVariable: string;
}

/** Counts over the account's calls created in the range, computed where the calls are stored. */
export interface CallAnalyticsRepository {
  count(userId: number, filter: CallAnalyticsFilter): Promise<CallCounts>;
}
