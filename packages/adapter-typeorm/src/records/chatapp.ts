import {
  bigint,
  boolean,
  integer,
  jsonb,
  numeric,
  ownedByUser,
  primaryKey,
  references,
  serialKey,
  text,
  timestamptz,
  varchar,
  char,
} from './columns';
import { record } from './record';

/**
 * Chat-app senders, templates, conversations, their messages and delivery records, and the sandbox
 * chat app's state (migration Chatapp). Columns are read and written with SQL by the repositories;
 * these schemas let the schema-drift test hold them equal to the migration.
 */

export interface ChatappSenderRecord {
  id: string;
  user_id: string;
  phone_number: string;
  display_name: string;
  status: string;
  quality_rating: string;
  messaging_limit: number | null;
  country_code: string;
  assistant_id: string | null;
  calling_enabled: boolean;
  status_webhook_url: string | null;
  provider: string;
  provider_sender_ref: string | null;
  provider_config: string | null;
  provider_account_ref: string | null;
  calling_trunk_id: string | null;
  calling_sip_password: string | null;
  calling_error: string | null;
  created_at: Date;
  updated_at: Date;
}

export const chatappSenders = record<ChatappSenderRecord>({
  name: 'chatapp_senders',
  columns: {
    id: serialKey('chatapp_senders'),
    user_id: bigint(),
    phone_number: varchar(16),
    display_name: varchar(255),
    status: varchar(8),
    quality_rating: varchar(8),
    messaging_limit: integer(true),
    country_code: varchar(2),
    assistant_id: bigint(true),
    calling_enabled: boolean(),
    status_webhook_url: varchar(2048, true),
    provider: varchar(16),
    provider_sender_ref: varchar(128, true),
    provider_config: text(true),
    provider_account_ref: varchar(128, true),
    calling_trunk_id: varchar(64, true),
    calling_sip_password: text(true),
    calling_error: varchar(255, true),
    created_at: timestamptz(),
    updated_at: timestamptz(),
  },
  foreignKeys: [
    ownedByUser('chatapp_senders'),
    references('chatapp_senders', 'assistant_id', 'assistants', 'SET NULL'),
  ],
  indices: [
    { name: 'chatapp_senders_phone_uq', columns: ['phone_number'], unique: true },
    { name: 'chatapp_senders_user_idx', columns: ['user_id', 'id'] },
    { name: 'chatapp_senders_ref_idx', columns: ['provider_sender_ref'] },
    { name: 'chatapp_senders_account_idx', columns: ['provider_account_ref'] },
  ],
});

export interface ChatappTemplateRecord {
  id: string;
  sender_id: string;
  name: string;
  language: string;
  category: string;
  status: string;
  body_text: string;
  footer_text: string | null;
  variables: string[];
  rejection_reason: string | null;
  provider_template_ref: string | null;
  created_at: Date;
  updated_at: Date;
}

export const chatappTemplates = record<ChatappTemplateRecord>({
  name: 'chatapp_templates',
  columns: {
    id: serialKey('chatapp_templates'),
    sender_id: bigint(),
    name: varchar(512),
    language: varchar(8),
    category: varchar(24),
    status: varchar(8),
    body_text: text(),
    footer_text: varchar(60, true),
    variables: jsonb(),
    rejection_reason: text(true),
    provider_template_ref: varchar(128, true),
    created_at: timestamptz(),
    updated_at: timestamptz(),
  },
  foreignKeys: [references('chatapp_templates', 'sender_id', 'chatapp_senders', 'CASCADE')],
  indices: [
    { name: 'chatapp_templates_name_uq', columns: ['sender_id', 'name', 'language'], unique: true },
    { name: 'chatapp_templates_ref_idx', columns: ['provider_template_ref'] },
  ],
});

export interface ConversationRecord {
  id: string;
  uuid: string;
  user_id: string;
  sender_id: string | null;
  assistant_id: string | null;
  customer_phone: string | null;
  type: string;
  variables: Record<string, string> | null;
  external_identifier: string | null;
  visitor_token_hash: string | null;
  customer_name: string | null;
  status: string;
  ai_enabled: boolean;
  ai_disabled_at: Date | null;
  ai_enabled_at: Date | null;
  message_count: number;
  last_message_at: Date | null;
  last_customer_message_at: Date | null;
  last_template_sent_at: Date | null;
  ended_count: number;
  ended_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export const conversations = record<ConversationRecord>({
  name: 'conversations',
  columns: {
    id: serialKey('conversations'),
    uuid: { type: 'uuid' },
    user_id: bigint(),
    sender_id: bigint(true),
    assistant_id: bigint(true),
    customer_phone: varchar(16, true),
    customer_name: varchar(255, true),
    status: varchar(8),
    ai_enabled: boolean(),
    ai_disabled_at: timestamptz(true),
    ai_enabled_at: timestamptz(true),
    message_count: integer(),
    last_message_at: timestamptz(true),
    last_customer_message_at: timestamptz(true),
    last_template_sent_at: timestamptz(true),
    ended_count: integer(),
    ended_at: timestamptz(true),
    created_at: timestamptz(),
    updated_at: timestamptz(),
    type: { ...varchar(16), default: 'chatapp' },
    variables: jsonb(true),
    external_identifier: varchar(255, true),
    visitor_token_hash: char(64, true),
  },
  foreignKeys: [ownedByUser('conversations'), references('conversations', 'sender_id', 'chatapp_senders', 'CASCADE')],
  indices: [
    { name: 'conversations_uuid_uq', columns: ['uuid'], unique: true },
    { name: 'conversations_customer_uq', columns: ['sender_id', 'customer_phone'], unique: true },
    { name: 'conversations_user_recent_idx', columns: ['user_id', 'last_message_at', 'id'] },
    // One external conversation per (assistant, customer identifier): generate-reply finds it again.
    {
      name: 'conversations_external_uq',
      columns: ['assistant_id', 'external_identifier'],
      unique: true,
      where: `type = 'external'`,
    },
  ],
});

export interface ConversationMessageRecord {
  id: string;
  conversation_id: string;
  direction: string;
  source: string;
  type: string;
  body: string | null;
  media_url: string | null;
  media_type: string | null;
  filename: string | null;
  template_id: string | null;
  status: string | null;
  error_code: string | null;
  media_error: string | null;
  created_at: Date;
  function_calls: unknown[] | null;
}

export const conversationMessages = record<ConversationMessageRecord>({
  name: 'conversation_messages',
  columns: {
    id: serialKey('conversation_messages'),
    conversation_id: bigint(),
    direction: varchar(8),
    source: varchar(16),
    type: varchar(24),
    body: text(true),
    media_url: varchar(2048, true),
    media_type: varchar(16, true),
    filename: varchar(255, true),
    template_id: bigint(true),
    status: varchar(16, true),
    error_code: varchar(64, true),
    created_at: timestamptz(),
    media_error: varchar(255, true),
    function_calls: jsonb(true),
  },
  foreignKeys: [references('conversation_messages', 'conversation_id', 'conversations', 'CASCADE')],
  indices: [{ name: 'conversation_messages_conversation_idx', columns: ['conversation_id', 'id'] }],
});

export interface ChatappMessageRecord {
  id: string;
  user_id: string;
  message_id: string;
  sender_id: string;
  conversation_id: string;
  direction: string;
  from_phone: string;
  to_phone: string;
  message_sid: string;
  provider_message_id: string | null;
  status: string;
  error_code: string | null;
  error_message: string | null;
  cost: string;
  from_allowance: boolean;
  status_history: unknown[];
  created_at: Date;
  updated_at: Date;
}

export const chatappMessages = record<ChatappMessageRecord>({
  name: 'chatapp_messages',
  columns: {
    id: serialKey('chatapp_messages'),
    user_id: bigint(),
    message_id: bigint(),
    sender_id: bigint(),
    conversation_id: bigint(),
    direction: varchar(8),
    from_phone: varchar(16),
    to_phone: varchar(16),
    message_sid: varchar(34),
    provider_message_id: varchar(255, true),
    status: varchar(16),
    error_code: varchar(64, true),
    error_message: varchar(1024, true),
    cost: numeric(12, 4),
    from_allowance: boolean(),
    status_history: jsonb(),
    created_at: timestamptz(),
    updated_at: timestamptz(),
  },
  foreignKeys: [
    ownedByUser('chatapp_messages'),
    references('chatapp_messages', 'message_id', 'conversation_messages', 'CASCADE'),
  ],
  indices: [
    { name: 'chatapp_messages_sid_uq', columns: ['message_sid'], unique: true },
    { name: 'chatapp_messages_message_uq', columns: ['message_id'], unique: true },
    { name: 'chatapp_messages_provider_idx', columns: ['provider_message_id'] },
    { name: 'chatapp_messages_allowance_idx', columns: ['user_id', 'created_at'], where: 'from_allowance' },
  ],
});

export interface SandboxChatappSentRecord {
  id: string;
  user_id: string;
  sender_id: string;
  to_phone: string;
  type: string;
  body: string | null;
  media_url: string | null;
  provider_message_id: string;
  sent_at: Date;
}

export const sandboxChatappSent = record<SandboxChatappSentRecord>({
  name: 'sandbox_chatapp_sent',
  columns: {
    id: serialKey('sandbox_chatapp_sent'),
    user_id: bigint(),
    sender_id: bigint(),
    to_phone: varchar(16),
    type: varchar(16),
    body: text(true),
    media_url: varchar(2048, true),
    provider_message_id: varchar(64),
    sent_at: timestamptz(),
  },
  foreignKeys: [ownedByUser('sandbox_chatapp_sent')],
  indices: [
    { name: 'sandbox_chatapp_sent_user_idx', columns: ['user_id', 'id'] },
    { name: 'sandbox_chatapp_sent_provider_idx', columns: ['provider_message_id'] },
  ],
});

/** A send between its reservation and its settlement (migration ChatappSendReservations); `outcome` null = open. */
export interface ChatappSendReservationRecord {
  id: string;
  user_id: string;
  sender_id: string;
  recipient_phone: string;
  message_sid: string;
  amount: string;
  from_allowance: boolean;
  message: unknown;
  outcome: string | null;
  created_at: Date;
  closed_at: Date | null;
}

export const chatappSendReservations = record<ChatappSendReservationRecord>({
  name: 'chatapp_send_reservations',
  columns: {
    id: serialKey('chatapp_send_reservations'),
    user_id: bigint(),
    sender_id: bigint(),
    recipient_phone: varchar(32),
    message_sid: varchar(34),
    amount: numeric(12, 4),
    from_allowance: boolean(),
    message: jsonb(),
    outcome: varchar(8, true),
    created_at: timestamptz(),
    closed_at: timestamptz(true),
  },
  foreignKeys: [ownedByUser('chatapp_send_reservations')],
  indices: [
    { name: 'chatapp_send_reservations_sid_uq', columns: ['message_sid'], unique: true },
    { name: 'chatapp_send_reservations_open_idx', columns: ['user_id'], where: 'outcome IS NULL' },
    { name: 'chatapp_send_reservations_sweep_idx', columns: ['created_at'], where: 'outcome IS NULL' },
  ],
});

export interface SandboxFaultRecord {
  id: string;
  user_id: string;
  kind: string;
  target_id: string | null;
  remaining: number;
}

export const sandboxFaults = record<SandboxFaultRecord>({
  name: 'sandbox_faults',
  columns: {
    id: serialKey('sandbox_faults'),
    user_id: bigint(),
    kind: varchar(32),
    target_id: bigint(true),
    remaining: integer(),
  },
  foreignKeys: [ownedByUser('sandbox_faults')],
  indices: [{ name: 'sandbox_faults_scope_idx', columns: ['user_id', 'kind'] }],
});

/** Voiceplane's copy of a file a customer sent; the bytes are in the media store under `id`. */
export interface ChatappMediaRecord {
  id: string;
  user_id: string;
  sender_id: string;
  message_id: string;
  source_kind: string;
  source_ref: string;
  status: string;
  content_type: string | null;
  size_bytes: number | null;
  created_at: Date;
  updated_at: Date;
}

export const chatappMedia = record<ChatappMediaRecord>({
  name: 'chatapp_media',
  columns: {
    id: primaryKey('chatapp_media', varchar(32)),
    user_id: bigint(),
    sender_id: bigint(),
    message_id: bigint(),
    source_kind: varchar(8),
    source_ref: text(),
    status: varchar(8),
    content_type: varchar(255, true),
    size_bytes: integer(true),
    created_at: timestamptz(),
    updated_at: timestamptz(),
  },
  foreignKeys: [
    ownedByUser('chatapp_media'),
    references('chatapp_media', 'message_id', 'conversation_messages', 'CASCADE'),
  ],
  indices: [
    { name: 'chatapp_media_message_idx', columns: ['message_id'] },
    { name: 'chatapp_media_created_idx', columns: ['created_at'] },
  ],
});

/** A media row that is gone (a trigger writes it): its file is still to delete from the media store. */
export interface ChatappMediaDeletionRecord {
  media_id: string;
  deleted_at: Date;
}

export const chatappMediaDeletions = record<ChatappMediaDeletionRecord>({
  name: 'chatapp_media_deletions',
  columns: {
    media_id: primaryKey('chatapp_media_deletions', varchar(32)),
    deleted_at: timestamptz(),
  },
});

export const chatappRecords = [
  chatappSenders,
  chatappTemplates,
  conversations,
  conversationMessages,
  chatappMessages,
  sandboxChatappSent,
  sandboxFaults,
  chatappMedia,
  chatappSendReservations,
  chatappMediaDeletions,
];
