import {
  bigint,
  boolean,
  char,
  columnCheck,
  integer,
  jsonb,
  numeric,
  ownedByUser,
  ownerListIndex,
  primaryKey,
  references,
  serialKey,
  stampedNow,
  text,
  timestamptz,
  varchar,
} from './columns';
import { record } from './record';

/** Owned phone numbers (SharedReferences, Telephony), SIP trunks and the provider clean-up queue (Telephony). */

export interface PhoneNumberRecord {
  id: string;
  user_id: string;
  phone_number: string;
  type: string;
  country_code: string;
  nickname: string | null;
  sms_capable: boolean;
  monthly_price: string | null;
  created_at: Date;
  updated_at: Date;
  provider_reference: string | null;
  renews_at: Date | null;
}

export const phoneNumbers = record<PhoneNumberRecord>({
  name: 'phone_numbers',
  columns: {
    id: serialKey('phone_numbers'),
    user_id: bigint(),
    phone_number: varchar(20),
    type: varchar(16),
    country_code: char(2),
    nickname: varchar(50, true),
    sms_capable: { ...boolean(), default: false },
    monthly_price: numeric(10, 4, true),
    created_at: stampedNow(),
    updated_at: stampedNow(),
    provider_reference: varchar(64, true),
    renews_at: timestamptz(true),
  },
  foreignKeys: [ownedByUser('phone_numbers')],
  indices: [
    ownerListIndex('phone_numbers'),
    { name: 'phone_numbers_purchased_uq', columns: ['phone_number'], unique: true, where: `type = 'purchased'` },
    { name: 'phone_numbers_renewal_idx', columns: ['renews_at'], where: 'renews_at IS NOT NULL' },
  ],
});

export interface SipTrunkRecord {
  id: string;
  sip_username: string;
  sip_password_cipher: string;
  sip_address: string;
  sip_calling_format: string;
  inbound_authorization_type: string;
  allowed_inbound_ips: string[] | null;
  outbound_proxy: boolean;
  inbound_trunk_id: string;
  outbound_trunk_id: string;
  inbound_route_id: string;
}

export const sipTrunks = record<SipTrunkRecord>({
  name: 'sip_trunks',
  columns: {
    id: primaryKey('sip_trunks', bigint()),
    sip_username: varchar(128),
    sip_password_cipher: text(),
    sip_address: varchar(260),
    sip_calling_format: varchar(8),
    inbound_authorization_type: varchar(4),
    allowed_inbound_ips: jsonb(true),
    outbound_proxy: { ...boolean(), default: false },
    inbound_trunk_id: varchar(64),
    outbound_trunk_id: varchar(64),
    inbound_route_id: varchar(64),
  },
  foreignKeys: [references('sip_trunks', 'id', 'phone_numbers', 'CASCADE')],
  checks: [
    columnCheck('sip_trunks', 'sip_calling_format', `sip_calling_format IN ('+e164', 'e164', 'national')`),
    columnCheck('sip_trunks', 'inbound_authorization_type', `inbound_authorization_type IN ('auth', 'ip')`),
    // The table-level check PostgreSQL names after the table alone.
    { name: 'sip_trunks_check', expression: `(inbound_authorization_type = 'ip') = (allowed_inbound_ips IS NOT NULL)` },
  ],
  indices: [{ name: 'sip_trunks_inbound_trunk_idx', columns: ['inbound_trunk_id'] }],
});

export interface SipProvisioningCleanupRecord {
  id: string;
  action: string;
  resource_id: string;
  target_trunk_id: string | null;
  release_trunk_ids: string[];
  wait_for_calls: boolean;
  attempts: number;
  last_error: string | null;
  next_attempt_at: Date;
  created_at: Date;
}

export const sipProvisioningCleanup = record<SipProvisioningCleanupRecord>({
  name: 'sip_provisioning_cleanup',
  columns: {
    id: serialKey('sip_provisioning_cleanup'),
    action: varchar(16),
    resource_id: varchar(64),
    target_trunk_id: varchar(64, true),
    release_trunk_ids: { ...jsonb(), default: [] },
    wait_for_calls: { ...boolean(), default: false },
    attempts: { ...integer(), default: 0 },
    last_error: varchar(500, true),
    next_attempt_at: timestamptz(),
    created_at: timestamptz(),
  },
  checks: [
    columnCheck(
      'sip_provisioning_cleanup',
      'action',
      `action IN ('delete_trunk', 'delete_route', 'point_route', 'delete_number')`,
    ),
  ],
  indices: [
    { name: 'sip_provisioning_cleanup_due_idx', columns: ['next_attempt_at', 'id'] },
    {
      name: 'sip_provisioning_cleanup_one_delete',
      columns: ['resource_id'],
      unique: true,
      where: `action = 'delete_number'`,
    },
  ],
});

export const telephonyRecords = [phoneNumbers, sipTrunks, sipProvisioningCleanup];
