import {
  bigint,
  boolean,
  columnCheck,
  integer,
  ownedByUser,
  ownerListIndex,
  references,
  serialKey,
  timestamptz,
  varchar,
} from './columns';
import { record } from './record';

/** Campaigns and their leads (migration Campaigns). */

export interface CampaignRecord {
  id: string;
  user_id: string;
  assistant_id: string;
  name: string;
  status: string;
  timezone: string;
  max_calls_in_parallel: number;
  mark_complete_when_no_leads: boolean;
  start_minute: number;
  end_minute: number;
  allowed_days: string[];
  max_retries: number;
  retry_interval: number;
  retry_on_voicemail: boolean;
  retry_on_goal_incomplete: boolean;
  goal_completion_variable: string | null;
  phone_number_ids: number[];
  window_in_lead_timezone: boolean;
  /** Calls the campaign placed: the caller-ID pool rotates on it. */
  calls_placed: number;
  stop_reason: string | null;
  started_at: Date | null;
  completed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export const campaigns = record<CampaignRecord>({
  name: 'campaigns',
  columns: {
    id: serialKey('campaigns'),
    user_id: bigint(),
    assistant_id: bigint(),
    name: varchar(255),
    status: varchar(16),
    timezone: varchar(64),
    max_calls_in_parallel: integer(),
    mark_complete_when_no_leads: boolean(),
    start_minute: integer(),
    end_minute: integer(),
    allowed_days: { type: 'json' },
    max_retries: integer(),
    retry_interval: integer(),
    retry_on_voicemail: boolean(),
    retry_on_goal_incomplete: boolean(),
    goal_completion_variable: varchar(255, true),
    phone_number_ids: { type: 'json' },
    window_in_lead_timezone: { ...boolean(), default: false },
    calls_placed: { ...integer(), default: 0 },
    stop_reason: varchar(32, true),
    started_at: timestamptz(true),
    completed_at: timestamptz(true),
    created_at: timestamptz(),
    updated_at: timestamptz(),
  },
  foreignKeys: [ownedByUser('campaigns')],
  checks: [columnCheck('campaigns', 'status', `status IN ('draft', 'in-progress', 'stopped', 'completed')`)],
  indices: [
    ownerListIndex('campaigns'),
    { name: 'campaigns_running_idx', columns: ['id'], where: `status = 'in-progress'` },
  ],
});

export interface LeadRecord {
  id: string;
  user_id: string;
  campaign_id: string;
  primary_lead_id: string | null;
  position: number;
  phone_number: string;
  variables: Record<string, string>;
  status: string;
  attempts: number;
  rounds_done: number;
  next_attempt_at: Date | null;
  last_call_id: string | null;
  /** The zone of the contact's window when its campaign reads windows in the lead's own time; null: the campaign's. */
  timezone: string | null;
  created_at: Date;
  updated_at: Date;
}

export const leads = record<LeadRecord>({
  name: 'leads',
  columns: {
    id: serialKey('leads'),
    user_id: bigint(),
    campaign_id: bigint(),
    primary_lead_id: bigint(true),
    position: integer(),
    phone_number: varchar(16),
    variables: { type: 'json' },
    status: varchar(24),
    attempts: { ...integer(), default: 0 },
    rounds_done: { ...integer(), default: 0 },
    next_attempt_at: timestamptz(true),
    last_call_id: bigint(true),
    timezone: varchar(64, true),
    created_at: timestamptz(),
    updated_at: timestamptz(),
  },
  foreignKeys: [
    ownedByUser('leads'),
    references('leads', 'campaign_id', 'campaigns', 'CASCADE'),
    references('leads', 'primary_lead_id', 'leads', 'CASCADE'),
  ],
  checks: [
    columnCheck(
      'leads',
      'status',
      `status IN ('created', 'scheduled', 'processing', 'completed', 'rescheduled', 'reached-max-retries', 'blacklisted')`,
    ),
  ],
  indices: [
    ownerListIndex('leads'),
    { name: 'leads_campaign_idx', columns: ['campaign_id', 'phone_number'] },
    { name: 'leads_group_idx', columns: ['primary_lead_id', 'position'] },
    {
      name: 'leads_due_idx',
      columns: ['campaign_id', 'status'],
      where: `status IN ('created', 'scheduled', 'rescheduled', 'processing')`,
    },
  ],
});

export interface DoNotCallRecord {
  id: string;
  user_id: string;
  phone_number: string;
  reason: string | null;
  created_at: Date;
}

/** The account's do-not-call list (migration DoNotCall). */
export const doNotCallNumbers = record<DoNotCallRecord>({
  name: 'do_not_call_numbers',
  columns: {
    id: serialKey('do_not_call_numbers'),
    user_id: bigint(),
    phone_number: varchar(16),
    reason: varchar(255, true),
    created_at: timestamptz(),
  },
  foreignKeys: [ownedByUser('do_not_call_numbers')],
  indices: [
    ownerListIndex('do_not_call_numbers'),
    { name: 'do_not_call_numbers_phone_uq', columns: ['user_id', 'phone_number'], unique: true },
  ],
});

export const campaignRecords = [campaigns, leads, doNotCallNumbers];
