import {
  bigint,
  integer,
  numeric,
  ownedByUser,
  ownerListIndex,
  serialKey,
  text,
  timestamptz,
  varchar,
} from './columns';
import { record } from './record';

/** The SMS log (migration Sms); a `pending` row holds its cost against the balance until settled or released. */
export interface SmsMessageRecord {
  id: string;
  user_id: string;
  phone_number_id: string;
  from_phone: string;
  to_phone: string;
  body: string;
  encoding: string;
  segments: number;
  cost: string;
  settlement: string;
  status: string;
  provider_message_id: string | null;
  error_code: string | null;
  error_message: string | null;
  request_id: string | null;
  created_at: Date;
  updated_at: Date;
}

export const smsMessages = record<SmsMessageRecord>({
  name: 'sms_messages',
  columns: {
    id: serialKey('sms_messages'),
    user_id: bigint(),
    phone_number_id: bigint(),
    from_phone: varchar(32),
    to_phone: varchar(32),
    body: text(),
    encoding: varchar(8),
    segments: integer(),
    cost: numeric(12, 4),
    settlement: varchar(8),
    status: varchar(16),
    provider_message_id: varchar(64, true),
    error_code: varchar(32, true),
    error_message: text(true),
    request_id: varchar(128, true),
    created_at: timestamptz(),
    updated_at: timestamptz(),
  },
  foreignKeys: [ownedByUser('sms_messages')],
  indices: [
    ownerListIndex('sms_messages'),
    { name: 'sms_messages_pending_idx', columns: ['user_id'], where: "settlement = 'pending'" },
  ],
});

/** What the sandbox SMS provider sent (migration Sms). */
export interface SandboxSmsSentRecord {
  id: string;
  user_id: string;
  phone_number_id: string;
  from_phone: string;
  to_phone: string;
  body: string;
  provider_message_id: string;
  sent_at: Date;
}

export const sandboxSmsSent = record<SandboxSmsSentRecord>({
  name: 'sandbox_sms_sent',
  columns: {
    id: serialKey('sandbox_sms_sent'),
    user_id: bigint(),
    phone_number_id: bigint(),
    from_phone: varchar(32),
    to_phone: varchar(32),
    body: text(),
    provider_message_id: varchar(64),
    sent_at: timestamptz(),
  },
  foreignKeys: [ownedByUser('sandbox_sms_sent')],
  indices: [ownerListIndex('sandbox_sms_sent')],
});

export const smsRecords = [smsMessages, sandboxSmsSent];
