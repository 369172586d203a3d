import { CampaignStatus, LEAD_STATUSES, LeadStatus, StopReason, Weekday } from '@voiceplane/domain';
import {
  Campaign,
  CampaignRepository,
  CampaignSettings,
  CampaignStats,
  CampaignStatusChange,
} from '@voiceplane/application';
import { Database } from '../../database';
import type { CampaignRecord } from '../../records';
import { dateOrNull, num } from '../rows';

const COLUMNS = `c.id, c.user_id, c.assistant_id, c.name, c.status, c.timezone, c.max_calls_in_parallel, c.mark_complete_when_no_leads,
  c.start_minute, c.end_minute, c.allowed_days, c.max_retries, c.retry_interval, c.retry_on_voicemail, c.retry_on_goal_incomplete,
  c.goal_completion_variable, c.phone_number_ids, c.window_in_lead_timezone, c.calls_placed, c.stop_reason, c.started_at, c.completed_at, c.created_at, c.updated_at,
  (SELECT count(*) FROM leads l WHERE l.campaign_id = c.id AND l.primary_lead_id IS NULL) AS leads_count`;

export type CampaignRow = CampaignRecord & { leads_count: string };

export function toCampaign(r: CampaignRow): Campaign {
  return {
    id: num(r.id),
    userId: num(r.user_id),
    assistantId: num(r.assistant_id),
    name: r.name,
    status: r.status as CampaignStatus,
    timezone: r.timezone,
    maxCallsInParallel: r.max_calls_in_parallel,
    markCompleteWhenNoLeads: r.mark_complete_when_no_leads,
    startMinute: r.start_minute,
    endMinute: r.end_minute,
    allowedDays: r.allowed_days as Weekday[],
    maxRetries: r.max_retries,
    retryInterval: r.retry_interval,
    retryOnVoicemail: r.retry_on_voicemail,
    retryOnGoalIncomplete: r.retry_on_goal_incomplete,
    goalCompletionVariable: r.goal_completion_variable,
    phoneNumberIds: r.phone_number_ids,
    windowInLeadTimezone: r.window_in_lead_timezone,
    stopReason: r.stop_reason as StopReason | null,
    startedAt: dateOrNull(r.started_at),
    completedAt: dateOrNull(r.completed_at),
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
    leadsCount: num(r.leads_count),
  };
}

/** The settings columns in the order of `settingsParams`. */
const SETTINGS_COLUMNS = [
  'name',
  'assistant_id',
  'timezone',
  'max_calls_in_parallel',
  'mark_complete_when_no_leads',
  'start_minute',
  'end_minute',
  'allowed_days',
  'max_retries',
  'retry_interval',
  'retry_on_voicemail',
  'retry_on_goal_incomplete',
  'goal_completion_variable',
  'phone_number_ids',
  'window_in_lead_timezone',
];

function settingsParams(s: CampaignSettings): unknown[] {
  return [
    s.name,
    s.assistantId,
    s.timezone,
    s.maxCallsInParallel,
    s.markCompleteWhenNoLeads,
    s.startMinute,
    s.endMinute,
    JSON.stringify(s.allowedDays),
    s.maxRetries,
    s.retryInterval,
    s.retryOnVoicemail,
    s.retryOnGoalIncomplete,
    s.goalCompletionVariable,
    JSON.stringify(s.phoneNumberIds),
    s.windowInLeadTimezone,
  ];
}

export class TypeormCampaignRepository implements CampaignRepository {
  constructor(private readonly db: Database) {}

  async create(userId: number, settings: CampaignSettings, now: Date): Promise<Campaign> {
    const params = settingsParams(settings);
    const placeholders = params.map((_, i) => `$${i + 3}`).join(', ');
    const row = await this.db.one<{ id: string }>(
      `INSERT INTO campaigns (user_id, status, ${SETTINGS_COLUMNS.join(', ')}, created_at, updated_at)
       VALUES ($1, 'draft', ${placeholders}, $2, $2) RETURNING id`,
      [userId, now, ...params],
    );
    return (await this.findOwned(userId, num(row?.id))) as Campaign;
  }

  async count(userId: number): Promise<number> {
    return num(
      (await this.db.one<{ n: string }>(`SELECT count(*) AS n FROM campaigns WHERE user_id = $1`, [userId]))?.n,
    );
  }

  async list(userId: number): Promise<Campaign[]> {
    return (
      await this.db.query<CampaignRow>(`SELECT ${COLUMNS} FROM campaigns c WHERE c.user_id = $1 ORDER BY c.id`, [
        userId,
      ])
    ).map(toCampaign);
  }

  async findOwned(userId: number, id: number, options: { readonly lock?: boolean } = {}): Promise<Campaign | null> {
    if (options.lock)
      await this.db.query<Pick<CampaignRecord, 'id'>>(
        `SELECT id FROM campaigns WHERE id = $1 AND user_id = $2 FOR UPDATE`,
        [id, userId],
      );
    const row = await this.db.one<CampaignRow>(
      `SELECT ${COLUMNS} FROM campaigns c WHERE c.id = $1 AND c.user_id = $2`,
      [id, userId],
    );
    return row ? toCampaign(row) : null;
  }

  async update(id: number, settings: CampaignSettings, now: Date): Promise<void> {
    const params = settingsParams(settings);
    const sets = SETTINGS_COLUMNS.map((column, i) => `${column} = $${i + 3}`).join(', ');
    await this.db.query(`UPDATE campaigns SET ${sets}, updated_at = $2 WHERE id = $1`, [id, now, ...params]);
  }

  async setStatus(id: number, change: CampaignStatusChange, now: Date): Promise<void> {
    await this.db.query(
      `UPDATE campaigns SET status = $2, stop_reason = $3, started_at = coalesce($4, started_at), completed_at = $5, updated_at = $6 WHERE id = $1`,
      [id, change.status, change.stopReason, change.startedAt ?? null, change.completedAt, now],
    );
  }

  async delete(userId: number, id: number): Promise<boolean> {
    return (
      (
        await this.db.query<Pick<CampaignRecord, 'id'>>(
          `DELETE FROM campaigns WHERE id = $1 AND user_id = $2 RETURNING id`,
          [id, userId],
        )
      ).length > 0
    );
  }

  async stats(id: number): Promise<CampaignStats> {
    const byStatus = await this.db.query<{
      status: string;
      primaries: string;
      secondaries: string;
      next_attempt_at: Date | null;
    }>(
      `SELECT status, count(*) FILTER (WHERE primary_lead_id IS NULL) AS primaries, count(*) FILTER (WHERE primary_lead_id IS NOT NULL) AS secondaries,
              min(next_attempt_at) FILTER (WHERE status = 'rescheduled') AS next_attempt_at
         FROM leads WHERE campaign_id = $1 GROUP BY status`,
      [id],
    );
    const calls = await this.db.one<{ total: string; answered: string; cost: string; duration: string | null }>(
      `SELECT count(*) AS total, count(*) FILTER (WHERE answered_at IS NOT NULL) AS answered, coalesce(sum(cost), 0) AS cost,
              avg(duration) FILTER (WHERE finished_at IS NOT NULL AND answered_at IS NOT NULL) AS duration
         FROM calls WHERE campaign_id = $1`,
      [id],
    );
    const leadsByStatus = Object.fromEntries(LEAD_STATUSES.map((s) => [s, 0])) as Record<LeadStatus, number>;
    let secondaryContacts = 0;
    let nextAttemptAt: Date | null = null;
    for (const r of byStatus) {
      leadsByStatus[r.status as LeadStatus] = num(r.primaries);
      secondaryContacts += num(r.secondaries);
      const next = dateOrNull(r.next_attempt_at);
      if (next && (nextAttemptAt === null || next < nextAttemptAt)) nextAttemptAt = next;
    }
    return {
      leadsByStatus,
      secondaryContacts,
      nextAttemptAt,
      callsTotal: num(calls?.total),
      callsAnswered: num(calls?.answered),
      costSoFar: num(calls?.cost),
      averageCallDuration: Math.round(num(calls?.duration)),
    };
  }

  async findById(
    id: number,
    options: { readonly lock?: boolean; readonly skipLocked?: boolean } = {},
  ): Promise<Campaign | null> {
    if (options.lock || options.skipLocked) {
      const locked = await this.db.one<Pick<CampaignRecord, 'id'>>(
        `SELECT id FROM campaigns WHERE id = $1 FOR UPDATE${options.skipLocked ? ' SKIP LOCKED' : ''}`,
        [id],
      );
      if (locked === null) return null;
    }
    const row = await this.db.one<CampaignRow>(`SELECT ${COLUMNS} FROM campaigns c WHERE c.id = $1`, [id]);
    return row ? toCampaign(row) : null;
  }

  async countOpenCalls(id: number): Promise<number> {
    return num(
      (
        await this.db.one<{ n: string }>(
          `SELECT count(*) AS n FROM calls WHERE campaign_id = $1 AND status IN ('initiated', 'queued', 'ringing', 'in-progress')`,
          [id],
        )
      )?.n,
    );
  }

  async takeCallTurn(id: number): Promise<number> {
    const row = await this.db.one<{ calls_placed: number }>(
      `UPDATE campaigns SET calls_placed = calls_placed + 1 WHERE id = $1 RETURNING calls_placed`,
      [id],
    );
    return (row?.calls_placed ?? 1) - 1;
  }
}
