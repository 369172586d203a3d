import { bigint, integer, numeric, primaryKey, varchar } from './columns';
import { record } from './record';

/**
 * The calls dashboard's daily roll-ups, written only by the triggers on `calls` (migration
 * CallDailyRollups): the application reads them and never writes them.
 */
export interface CallDailyStatsRecord {
  user_id: string;
  /** Read through `pg`, a date is a Date at local midnight: readers select `day::text` instead. */
  day: Date;
  assistant_id: string;
  status: string;
  calls: number;
  answered: number;
  answered_duration: string;
  cost: string;
  goal_met: number;
}

export const callDailyStats = record<CallDailyStatsRecord>({
  name: 'call_daily_stats',
  columns: {
    user_id: primaryKey('call_daily_stats', bigint()),
    day: primaryKey('call_daily_stats', { type: 'date' } as const),
    assistant_id: primaryKey('call_daily_stats', bigint()),
    status: primaryKey('call_daily_stats', varchar(32)),
    calls: integer(),
    answered: integer(),
    answered_duration: bigint(),
    cost: numeric(16, 4),
    goal_met: integer(),
  },
  indices: [{ name: 'call_daily_stats_assistant_idx', columns: ['user_id', 'assistant_id', 'day'] }],
});

export interface CallDailyReasonsRecord {
  user_id: string;
  day: Date;
  assistant_id: string;
  ended_reason: string;
  calls: number;
}

export const callDailyReasons = record<CallDailyReasonsRecord>({
  name: 'call_daily_reasons',
  columns: {
    user_id: primaryKey('call_daily_reasons', bigint()),
    day: primaryKey('call_daily_reasons', { type: 'date' } as const),
    assistant_id: primaryKey('call_daily_reasons', bigint()),
    ended_reason: primaryKey('call_daily_reasons', varchar(255)),
    calls: integer(),
  },
  indices: [{ name: 'call_daily_reasons_assistant_idx', columns: ['user_id', 'assistant_id', 'day'] }],
});

export const callDailyRollupRecords = [callDailyStats, callDailyReasons];
