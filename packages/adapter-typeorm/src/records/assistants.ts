import { EntitySchema } from 'typeorm';
import {
  bigint,
  boolean,
  columnCheck,
  double,
  integer,
  jsonb,
  ownedByUser,
  ownerListIndex,
  primaryKey,
  references,
  serialKey,
  stampedNow,
  text,
  varchar,
} from './columns';
import { record } from './record';

/**
 * Assistants and what they group by or reference (migration Assistants). Delete rules follow the
 * contract: deleting a folder, knowledge base or number clears the reference; deleting a tool or
 * label detaches it.
 */

/** A folder or a label: the same shape, names unique per owner regardless of case. */
export interface FolderRecord {
  id: string;
  user_id: string;
  name: string;
  color: string | null;
  created_at: Date;
  updated_at: Date;
}

function folderRecord(table: 'folders' | 'labels'): EntitySchema<FolderRecord> {
  return record<FolderRecord>({
    name: table,
    columns: {
      id: serialKey(table),
      user_id: bigint(),
      name: varchar(255),
      color: varchar(16, true),
      created_at: stampedNow(),
      updated_at: stampedNow(),
    },
    foreignKeys: [ownedByUser(table)],
    indices: [
      // On (user_id, lower(name)): TypeORM cannot express the expression, so it leaves this index alone.
      { name: `${table}_user_name_uq`, columns: ['user_id', 'name'], unique: true, synchronize: false },
    ],
  });
}

export const folders = folderRecord('folders');
export const labels = folderRecord('labels');

export interface KnowledgeBaseRecord {
  id: string;
  user_id: string;
  name: string;
  description: string | null;
  status: string;
  documents_count: number;
  created_at: Date;
  updated_at: Date;
}

export const knowledgeBases = record<KnowledgeBaseRecord>({
  name: 'knowledge_bases',
  columns: {
    id: serialKey('knowledge_bases'),
    user_id: bigint(),
    name: varchar(255),
    description: varchar(1000, true),
    status: varchar(16),
    documents_count: { ...integer(), default: 0 },
    created_at: stampedNow(),
    updated_at: stampedNow(),
  },
  foreignKeys: [ownedByUser('knowledge_bases')],
  checks: [columnCheck('knowledge_bases', 'status', `status IN ('empty', 'processing', 'active', 'failed')`)],
  indices: [ownerListIndex('knowledge_bases')],
});

export interface EventTypeRecord {
  id: string;
  user_id: string;
  name: string;
  duration_minutes: number;
  created_at: Date;
}

export const eventTypes = record<EventTypeRecord>({
  name: 'event_types',
  columns: {
    id: serialKey('event_types'),
    user_id: bigint(),
    name: varchar(255),
    duration_minutes: integer(),
    created_at: stampedNow(),
  },
  foreignKeys: [ownedByUser('event_types')],
  checks: [columnCheck('event_types', 'duration_minutes', 'duration_minutes BETWEEN 5 AND 480')],
  indices: [ownerListIndex('event_types')],
});

export interface AssistantRecord {
  id: string;
  uuid: string;
  user_id: string;
  status: string;
  compliance_blocked: boolean;
  compliance_reason: string | null;
  name: string;
  type: string;
  mode: string;
  timezone: string;
  initial_message: string;
  system_prompt: string;
  knowledgebase_mode: string | null;
  reengagement_prompt: string | null;
  voice_mail_message: string | null;
  endpoint_type: string;
  ambient_sound: string;
  webhook_url: string | null;
  conversation_ended_webhook_url: string | null;
  inbound_webhook_url: string | null;
  voice_id: number | null;
  language_id: number;
  llm_model_id: number | null;
  multimodal_model_id: number | null;
  chat_llm_fallback_id: number | null;
  knowledgebase_id: string | null;
  folder_id: string | null;
  phone_number_id: string | null;
  synthesizer_provider_id: number | null;
  transcriber_provider_id: number | null;
  secondary_language_ids: number[];
  tools: unknown[];
  post_call_schema: unknown[];
  turn_detection_threshold: number | null;
  voice_stability: number;
  voice_similarity: number;
  speech_speed: number;
  llm_temperature: number;
  max_duration: number;
  max_silence_duration: number;
  max_initial_silence_duration: number | null;
  ringing_time: number;
  reengagement_interval: number;
  endpoint_sensitivity: number;
  interrupt_sensitivity: number;
  min_interrupt_words: number | null;
  ambient_sound_volume: number;
  conversation_inactivity_timeout: number;
  tts_emotion_enabled: boolean;
  allow_interruptions: boolean;
  fillers: boolean;
  record: boolean;
  enable_noise_cancellation: boolean;
  wait_for_customer: boolean;
  end_call_on_voicemail: boolean;
  is_webhook_active: boolean;
  send_webhook_only_on_completed: boolean;
  include_recording_in_webhook: boolean;
  post_call_evaluation: boolean;
  conversation_ended_retrigger: boolean;
  filler_config: unknown;
  variables: Record<string, string>;
  created_at: Date;
  updated_at: Date;
}

export const assistants = record<AssistantRecord>({
  name: 'assistants',
  columns: {
    id: serialKey('assistants'),
    user_id: bigint(),
    status: { ...varchar(16), default: 'inactive' },
    compliance_blocked: { ...boolean(), default: false },
    compliance_reason: varchar(500, true),
    name: varchar(255),
    type: varchar(16),
    mode: varchar(16),
    timezone: varchar(64),
    initial_message: text(),
    system_prompt: text(),
    knowledgebase_mode: varchar(16, true),
    reengagement_prompt: text(true),
    voice_mail_message: text(true),
    endpoint_type: varchar(8),
    ambient_sound: varchar(16),
    webhook_url: varchar(2048, true),
    conversation_ended_webhook_url: varchar(2048, true),
    inbound_webhook_url: varchar(2048, true),
    voice_id: integer(true),
    language_id: integer(),
    llm_model_id: integer(true),
    multimodal_model_id: integer(true),
    chat_llm_fallback_id: integer(true),
    knowledgebase_id: bigint(true),
    folder_id: bigint(true),
    phone_number_id: bigint(true),
    synthesizer_provider_id: integer(true),
    transcriber_provider_id: integer(true),
    secondary_language_ids: { ...integer(), array: true, default: [] },
    tools: { ...jsonb(), default: [] },
    post_call_schema: { ...jsonb(), default: [] },
    turn_detection_threshold: double(true),
    voice_stability: double(),
    voice_similarity: double(),
    speech_speed: double(),
    llm_temperature: double(),
    max_duration: integer(),
    max_silence_duration: integer(),
    max_initial_silence_duration: integer(true),
    ringing_time: integer(),
    reengagement_interval: integer(),
    endpoint_sensitivity: double(),
    interrupt_sensitivity: double(),
    min_interrupt_words: integer(true),
    ambient_sound_volume: double(),
    conversation_inactivity_timeout: integer(),
    tts_emotion_enabled: boolean(),
    allow_interruptions: boolean(),
    fillers: boolean(),
    record: boolean(),
    enable_noise_cancellation: boolean(),
    wait_for_customer: boolean(),
    end_call_on_voicemail: boolean(),
    is_webhook_active: boolean(),
    send_webhook_only_on_completed: boolean(),
    include_recording_in_webhook: boolean(),
    post_call_evaluation: boolean(),
    conversation_ended_retrigger: boolean(),
    filler_config: jsonb(true),
    variables: { ...jsonb(), default: {} },
    created_at: stampedNow(),
    updated_at: stampedNow(),
    uuid: { type: 'uuid', generated: 'uuid' },
  },
  foreignKeys: [
    ownedByUser('assistants'),
    references('assistants', 'voice_id', 'voices'),
    references('assistants', 'language_id', 'languages'),
    references('assistants', 'llm_model_id', 'ai_models'),
    references('assistants', 'multimodal_model_id', 'ai_models'),
    references('assistants', 'chat_llm_fallback_id', 'ai_models'),
    references('assistants', 'knowledgebase_id', 'knowledge_bases', 'SET NULL'),
    references('assistants', 'folder_id', 'folders', 'SET NULL'),
    references('assistants', 'phone_number_id', 'phone_numbers', 'SET NULL'),
    references('assistants', 'synthesizer_provider_id', 'speech_providers'),
    references('assistants', 'transcriber_provider_id', 'speech_providers'),
  ],
  checks: [
    columnCheck('assistants', 'status', `status IN ('active', 'inactive')`),
    columnCheck('assistants', 'type', `type IN ('outbound', 'inbound')`),
    columnCheck('assistants', 'mode', `mode IN ('pipeline', 'multimodal', 'dualplex')`),
  ],
  indices: [
    ownerListIndex('assistants'),
    { name: 'assistants_uuid_uq', columns: ['uuid'], unique: true },
    // The outbound list reads this index in id order.
    { name: 'assistants_user_type_idx', columns: ['user_id', 'type', 'id'] },
    { name: 'assistants_folder_idx', columns: ['folder_id'], where: 'folder_id IS NOT NULL' },
    { name: 'assistants_knowledge_base_idx', columns: ['knowledgebase_id'], where: 'knowledgebase_id IS NOT NULL' },
    { name: 'assistants_phone_number_idx', columns: ['phone_number_id'], where: 'phone_number_id IS NOT NULL' },
    // An inbound number answers for at most one assistant.
    {
      name: 'assistants_inbound_number_uq',
      columns: ['phone_number_id'],
      unique: true,
      where: `type = 'inbound' AND phone_number_id IS NOT NULL`,
    },
  ],
});

/** An ordered attachment of a tool or a label to an assistant. */
export interface AttachmentRecord {
  assistant_id: string;
  position: number;
}
export type AssistantToolRecord = AttachmentRecord & { tool_id: string };
export type AssistantLabelRecord = AttachmentRecord & { label_id: string };

/** Keys and indexes of an attachment table (`column` names what is attached). */
function attachment(table: string, column: 'tool_id' | 'label_id', target: string) {
  return {
    name: table,
    foreignKeys: [
      references(table, 'assistant_id', 'assistants', 'CASCADE'),
      references(table, column, target, 'CASCADE'),
    ],
    indices: [{ name: `${table}_${column.replace('_id', '')}_idx`, columns: [column] }],
  };
}

export const assistantTools = record<AssistantToolRecord>({
  ...attachment('assistant_tools', 'tool_id', 'tools'),
  columns: {
    assistant_id: primaryKey('assistant_tools', bigint()),
    tool_id: primaryKey('assistant_tools', bigint()),
    position: { type: 'smallint' },
  },
});
export const assistantLabels = record<AssistantLabelRecord>({
  ...attachment('assistant_labels', 'label_id', 'labels'),
  columns: {
    assistant_id: primaryKey('assistant_labels', bigint()),
    label_id: primaryKey('assistant_labels', bigint()),
    position: { type: 'smallint' },
  },
});

export const assistantRecords = [
  folders,
  labels,
  knowledgeBases,
  eventTypes,
  assistants,
  assistantTools,
  assistantLabels,
];
