import { formatTimeOfDay } from '@voiceplane/domain';
import { NewOutboxEvent } from '../ports';
import { Campaign } from './ports';

export const CAMPAIGN_TOPICS = ['campaign.started', 'campaign.stopped', 'campaign.completed'] as const;
export type CampaignTopic = (typeof CAMPAIGN_TOPICS)[number];

/** The campaign as its routes answer it (snake_case, times with seconds, timestamps in ISO 8601). */
export function campaignRecord(c: Campaign): Record<string, unknown> {
  return {
    id: c.id,
    name: c.name,
    status: c.status,
    max_calls_in_parallel: c.maxCallsInParallel,
    mark_complete_when_no_leads: c.markCompleteWhenNoLeads,
    allowed_hours_start_time: formatTimeOfDay(c.startMinute),
    allowed_hours_end_time: formatTimeOfDay(c.endMinute),
    allowed_days: [...c.allowedDays],
    max_retries: c.maxRetries,
    retry_interval: c.retryInterval,
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
    assistant_id: c.assistantId,
    timezone: c.timezone,
    retry_on_voicemail: c.retryOnVoicemail,
    retry_on_goal_incomplete: c.retryOnGoalIncomplete,
    goal_completion_variable: c.goalCompletionVariable,
    phone_number_ids: [...c.phoneNumberIds],
    window_in_lead_timezone: c.windowInLeadTimezone,
    stop_reason: c.stopReason,
    started_at: c.startedAt?.toISOString() ?? null,
    completed_at: c.completedAt?.toISOString() ?? null,
    leads_count: c.leadsCount,
  };
}

/** `campaign.started` / `.stopped` / `.completed` for the account's event subscribers. */
export function campaignEvent(topic: CampaignTopic, campaign: Campaign): NewOutboxEvent {
  return { topic, payload: { event: topic, user_id: campaign.userId, campaign: campaignRecord(campaign) } };
}
