import {
  bigint,
  integer,
  jsonb,
  ownedByUser,
  primaryKey,
  references,
  serialKey,
  stampedNow,
  text,
  timestamptz,
  uniqueColumn,
  varchar,
} from './columns';
import { record } from './record';

/** Outgoing webhooks: the signing secrets (Foundation), deliveries and their attempts (EventBackbone). */

export interface WebhookSigningSecretRecord {
  user_id: string;
  secret: string;
  created_at: Date;
  previous_secret: string | null;
  previous_expires_at: Date | null;
}

export const webhookSigningSecrets = record<WebhookSigningSecretRecord>({
  name: 'webhook_signing_secrets',
  columns: {
    user_id: primaryKey('webhook_signing_secrets', bigint()),
    secret: varchar(128),
    created_at: stampedNow(),
    previous_secret: varchar(128, true),
    previous_expires_at: timestamptz(true),
  },
  foreignKeys: [ownedByUser('webhook_signing_secrets')],
});

export interface WebhookDeliveryRecord {
  seq: string;
  id: string;
  user_id: string;
  event_type: string;
  webhook_id: string;
  target_url: string;
  body: string;
  status: string;
  attempts_count: number;
  round_attempts: number;
  max_attempts: number;
  next_attempt_at: Date | null;
  last_attempt_at: Date | null;
  last_status_code: number | null;
  last_error: string | null;
  source_type: string;
  source_id: string;
  subject: unknown;
  request_id: string | null;
  locked_until: Date | null;
  lease_token: string | null;
  created_at: Date;
  updated_at: Date;
}

export const webhookDeliveries = record<WebhookDeliveryRecord>({
  name: 'webhook_deliveries',
  columns: {
    seq: serialKey('webhook_deliveries'),
    id: varchar(40),
    user_id: bigint(),
    event_type: varchar(64),
    webhook_id: varchar(40),
    target_url: varchar(2048),
    body: text(),
    status: varchar(16),
    attempts_count: { ...integer(), default: 0 },
    round_attempts: { ...integer(), default: 0 },
    max_attempts: integer(),
    next_attempt_at: timestamptz(true),
    last_attempt_at: timestamptz(true),
    last_status_code: integer(true),
    last_error: varchar(32, true),
    source_type: varchar(16),
    source_id: bigint(),
    subject: jsonb(true),
    request_id: varchar(128, true),
    locked_until: timestamptz(true),
    lease_token: varchar(40, true),
    created_at: timestamptz(),
    updated_at: timestamptz(),
  },
  uniques: [uniqueColumn('webhook_deliveries', 'id'), uniqueColumn('webhook_deliveries', 'webhook_id')],
  foreignKeys: [ownedByUser('webhook_deliveries')],
  indices: [
    // (user_id, seq DESC): newest first.
    { name: 'webhook_deliveries_user_idx', columns: ['user_id', 'seq'] },
    {
      name: 'webhook_deliveries_pending_source_idx',
      columns: ['user_id', 'source_type', 'source_id'],
      where: `status = 'pending'`,
    },
    { name: 'webhook_deliveries_settled_age_idx', columns: ['updated_at'], where: `status <> 'pending'` },
  ],
});

export interface WebhookDeliveryAttemptRecord {
  delivery_seq: string;
  number: number;
  at: Date;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  response_excerpt: string | null;
}

export const webhookDeliveryAttempts = record<WebhookDeliveryAttemptRecord>({
  name: 'webhook_delivery_attempts',
  columns: {
    delivery_seq: primaryKey('webhook_delivery_attempts', bigint()),
    number: primaryKey('webhook_delivery_attempts', integer()),
    at: timestamptz(),
    status_code: integer(true),
    duration_ms: integer(),
    error: varchar(32, true),
    response_excerpt: text(true),
  },
  foreignKeys: [references('webhook_delivery_attempts', 'delivery_seq', 'webhook_deliveries', 'CASCADE', 'seq')],
});

export const webhookRecords = [webhookSigningSecrets, webhookDeliveries, webhookDeliveryAttempts];
