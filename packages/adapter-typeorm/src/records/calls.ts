import {
  bigint,
  columnCheck,
  integer,
  numeric,
  ownedByUser,
  ownerListIndex,
  primaryKey,
  references,
  serialKey,
  timestamptz,
  uniqueColumn,
  varchar,
} from './columns';
import { record } from './record';

/**
 * Calls and the runtime events accepted for them (migration Calls). Documents are `json`, not
 * `jsonb`, so keys come back in the order they were sent. No foreign key to the assistant or the
 * number: stored calls outlive both.
 */

export interface CallRecord {
  id: string;
  user_id: string;
  assistant_id: string;
  direction: string;
  channel: string;
  status: string;
  customer_phone: string;
  assistant_phone: string | null;
  phone_number_id: string | null;
  sender_id: string | null;
  conversation_id: string | null;
  automation_run_id: string | null;
  variables: Record<string, unknown>;
  extracted_variables: Record<string, unknown>;
  duration: number;
  cost: string;
  recording_url: string | null;
  ended_reason: string | null;
  transcript_items: unknown[];
  runtime_config: Record<string, unknown>;
  provider_call_id: string | null;
  /** The campaign and the lead contact a campaign call was placed for. */
  campaign_id: string | null;
  lead_id: string | null;
  created_at: Date;
  answered_at: Date | null;
  finished_at: Date | null;
  updated_at: Date;
}

const CALL_STATUSES = `'initiated', 'queued', 'ringing', 'in-progress', 'completed', 'busy', 'no-answer', 'failed', 'canceled'`;

export const calls = record<CallRecord>({
  name: 'calls',
  columns: {
    id: serialKey('calls'),
    user_id: bigint(),
    assistant_id: bigint(),
    direction: varchar(8),
    channel: varchar(8),
    status: varchar(16),
    customer_phone: varchar(64),
    assistant_phone: varchar(64, true),
    phone_number_id: bigint(true),
    sender_id: bigint(true),
    conversation_id: { type: 'uuid', nullable: true },
    automation_run_id: varchar(40, true),
    variables: { type: 'json', default: {} },
    extracted_variables: { type: 'json', default: {} },
    duration: { ...integer(), default: 0 },
    cost: { ...numeric(12, 4), default: 0 },
    recording_url: varchar(2048, true),
    ended_reason: varchar(255, true),
    transcript_items: { type: 'json', default: [] },
    runtime_config: { type: 'json' },
    provider_call_id: varchar(128, true),
    campaign_id: bigint(true),
    lead_id: bigint(true),
    created_at: timestamptz(),
    answered_at: timestamptz(true),
    finished_at: timestamptz(true),
    updated_at: timestamptz(),
  },
  foreignKeys: [ownedByUser('calls')],
  checks: [
    columnCheck('calls', 'direction', `direction IN ('outbound', 'inbound')`),
    columnCheck('calls', 'channel', `channel IN ('phone', 'chatapp')`),
    columnCheck('calls', 'status', `status IN (${CALL_STATUSES})`),
  ],
  indices: [
    ownerListIndex('calls'),
    // (user_id, assistant_id, id DESC): newest first.
    { name: 'calls_user_assistant_idx', columns: ['user_id', 'assistant_id', 'id'] },
    {
      name: 'calls_provider_call_uq',
      columns: ['provider_call_id'],
      unique: true,
      where: 'provider_call_id IS NOT NULL',
    },
    // The calls dashboard: an account's calls by creation time, for all its assistants or one.
    { name: 'calls_user_created_idx', columns: ['user_id', 'created_at'] },
    { name: 'calls_user_assistant_created_idx', columns: ['user_id', 'assistant_id', 'created_at'] },
    // Its p95: answered calls' durations read from the index alone.
    {
      name: 'calls_user_answered_duration_idx',
      columns: ['user_id', 'created_at', 'duration'],
      where: 'answered_at IS NOT NULL',
    },
    {
      name: 'calls_user_assistant_answered_duration_idx',
      columns: ['user_id', 'assistant_id', 'created_at', 'duration'],
      where: 'answered_at IS NOT NULL',
    },
    { name: 'calls_campaign_idx', columns: ['campaign_id', 'id'], where: 'campaign_id IS NOT NULL' },
  ],
});

export interface CallRuntimeEventRecord {
  call_id: string;
  event_id: string;
  type: string;
  status: string;
  received_at: Date;
}

export const callRuntimeEvents = record<CallRuntimeEventRecord>({
  name: 'call_runtime_events',
  columns: {
    call_id: primaryKey('call_runtime_events', bigint()),
    event_id: primaryKey('call_runtime_events', varchar(128)),
    type: varchar(16),
    status: varchar(16),
    received_at: timestamptz(),
  },
  foreignKeys: [references('call_runtime_events', 'call_id', 'calls', 'CASCADE')],
});

/** What the chat app reported about a chat-app call (migration ChatappCallReports). */
export interface ChatappCallReportRecord {
  call_id: string;
  meta_call_id: string;
  connect_at: Date | null;
  terminate_at: Date | null;
  duration: number | null;
  status: string | null;
  created_at: Date;
  updated_at: Date;
}

export const chatappCallReports = record<ChatappCallReportRecord>({
  name: 'chatapp_call_reports',
  columns: {
    call_id: primaryKey('chatapp_call_reports', bigint()),
    meta_call_id: varchar(128),
    connect_at: timestamptz(true),
    terminate_at: timestamptz(true),
    duration: integer(true),
    status: varchar(32, true),
    created_at: timestamptz(),
    updated_at: timestamptz(),
  },
  foreignKeys: [references('chatapp_call_reports', 'call_id', 'calls', 'CASCADE')],
  uniques: [uniqueColumn('chatapp_call_reports', 'meta_call_id')],
});

export const callRecords = [calls, callRuntimeEvents, chatappCallReports];
