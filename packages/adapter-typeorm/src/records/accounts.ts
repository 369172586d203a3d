import {
  bigint,
  char,
  numeric,
  ownedByUser,
  ownerListIndex,
  primaryKey,
  serialKey,
  stampedNow,
  text,
  timestamptz,
  varchar,
} from './columns';
import { record } from './record';

/**
 * Accounts and what authenticates them (migration Foundation). Row types are what `pg` hands back:
 * bigint and numeric arrive as strings.
 */

export interface SystemSettingRecord {
  key: string;
  value: string;
  created_at: Date;
}

export const systemSettings = record<SystemSettingRecord>({
  name: 'system_settings',
  columns: {
    key: primaryKey('system_settings', { type: 'text' }),
    value: text(),
    created_at: stampedNow(),
  },
});

export interface UserRecord {
  id: string;
  name: string;
  email: string;
  password_hash: string | null;
  disabled: boolean;
  balance: string;
  plan: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

export const users = record<UserRecord>({
  name: 'users',
  columns: {
    id: serialKey('users'),
    name: varchar(255),
    email: varchar(255),
    password_hash: text(true),
    disabled: { type: 'boolean', default: false },
    balance: { ...numeric(14, 4), default: 0 },
    plan: { type: 'jsonb' },
    created_at: stampedNow(),
    updated_at: stampedNow(),
  },
  indices: [
    // On lower(email): TypeORM can neither express nor read an expression index, so it leaves this one alone.
    { name: 'users_email_lower_uq', columns: ['email'], unique: true, synchronize: false },
  ],
});

export interface ApiKeyRecord {
  id: string;
  user_id: string;
  name: string;
  token_hash: string;
  last_used_at: Date | null;
  created_at: Date;
}

export const apiKeys = record<ApiKeyRecord>({
  name: 'api_keys',
  columns: {
    id: serialKey('api_keys'),
    user_id: bigint(),
    name: varchar(255),
    token_hash: char(64),
    last_used_at: timestamptz(true),
    created_at: stampedNow(),
  },
  foreignKeys: [ownedByUser('api_keys')],
  indices: [{ name: 'api_keys_token_hash_uq', columns: ['token_hash'], unique: true }, ownerListIndex('api_keys')],
});

export interface SessionRecord {
  id: string;
  user_id: string;
  token_hash: string;
  expires_at: Date;
  revoked_at: Date | null;
  created_at: Date;
}

export const sessions = record<SessionRecord>({
  name: 'sessions',
  columns: {
    id: serialKey('sessions'),
    user_id: bigint(),
    token_hash: char(64),
    expires_at: timestamptz(),
    revoked_at: timestamptz(true),
    created_at: stampedNow(),
  },
  foreignKeys: [ownedByUser('sessions')],
  indices: [{ name: 'sessions_token_hash_uq', columns: ['token_hash'], unique: true }],
});

export interface LedgerEntryRecord {
  id: string;
  user_id: string;
  type: string;
  amount: string;
  balance_after: string;
  description: string;
  reference_type: string | null;
  reference_id: string | null;
  request_id: string | null;
  created_at: Date;
}

export const ledgerEntries = record<LedgerEntryRecord>({
  name: 'ledger_entries',
  columns: {
    id: serialKey('ledger_entries'),
    user_id: bigint(),
    type: varchar(32),
    amount: numeric(14, 4),
    balance_after: numeric(14, 4),
    description: varchar(255),
    reference_type: varchar(32, true),
    reference_id: bigint(true),
    request_id: varchar(128, true),
    created_at: stampedNow(),
  },
  foreignKeys: [ownedByUser('ledger_entries')],
  indices: [
    { name: 'ledger_entries_user_idx', columns: ['user_id', 'id'] },
    // BillingGateway: a paid top-up is credited at most once.
    { name: 'ledger_entries_top_up_uq', columns: ['reference_id'], unique: true, where: `reference_type = 'top_up'` },
  ],
});

export const accountRecords = [systemSettings, users, apiKeys, sessions, ledgerEntries];
