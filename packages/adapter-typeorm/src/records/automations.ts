import {
  bigint,
  boolean,
  integer,
  jsonb,
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

/** Automations: data tables, connections, automations, versions and runs (migration Automations). */

export interface AutomationTableRecord {
  id: string;
  user_id: string;
  name: string;
  columns: unknown;
  created_at: Date;
  updated_at: Date;
}

export const automationTables = record<AutomationTableRecord>({
  name: 'automation_tables',
  columns: {
    id: serialKey('automation_tables'),
    user_id: bigint(),
    name: varchar(255),
    columns: jsonb(),
    created_at: stampedNow(),
    updated_at: stampedNow(),
  },
  foreignKeys: [ownedByUser('automation_tables')],
  indices: [
    ownerListIndex('automation_tables'),
    { name: 'automation_tables_name_uq', columns: ['user_id', 'name'], unique: true },
  ],
});

export interface AutomationTableRowRecord {
  id: string;
  table_id: string;
  values: unknown;
  created_at: Date;
  updated_at: Date;
}

export const automationTableRows = record<AutomationTableRowRecord>({
  name: 'automation_table_rows',
  columns: {
    id: serialKey('automation_table_rows'),
    table_id: bigint(),
    values: jsonb(),
    created_at: stampedNow(),
    updated_at: stampedNow(),
  },
  foreignKeys: [references('automation_table_rows', 'table_id', 'automation_tables', 'CASCADE')],
  indices: [{ name: 'automation_table_rows_table_idx', columns: ['table_id', 'id'] }],
});

export interface AutomationConnectionRecord {
  id: string;
  user_id: string;
  name: string;
  kind: string;
  base_url: string;
  notes_path: string;
  auth_type: string;
  auth_header_name: string | null;
  auth_value_sealed: string | null;
  status: string;
  last_checked_at: Date | null;
  last_error: string | null;
  created_at: Date;
  updated_at: Date;
}

export const automationConnections = record<AutomationConnectionRecord>({
  name: 'automation_connections',
  columns: {
    id: serialKey('automation_connections'),
    user_id: bigint(),
    name: varchar(255),
    kind: varchar(16),
    base_url: varchar(2048),
    notes_path: varchar(255),
    auth_type: varchar(16),
    auth_header_name: varchar(128, true),
    auth_value_sealed: text(true),
    status: varchar(16),
    last_checked_at: timestamptz(true),
    last_error: varchar(255, true),
    created_at: stampedNow(),
    updated_at: stampedNow(),
  },
  foreignKeys: [ownedByUser('automation_connections')],
  indices: [ownerListIndex('automation_connections')],
});

export interface AutomationRecord {
  id: string;
  user_id: string;
  name: string;
  template_key: string;
  status: string;
  binding_type: string;
  assistant_id: string | null;
  bound: boolean;
  webhook_token: string | null;
  tool_id: string | null;
  live_version_id: string | null;
  last_test: unknown;
  created_at: Date;
  updated_at: Date;
}

export const automations = record<AutomationRecord>({
  name: 'automations',
  columns: {
    id: primaryKey('automations', varchar(40)),
    user_id: bigint(),
    name: varchar(255),
    template_key: varchar(64),
    status: varchar(16),
    binding_type: varchar(16),
    assistant_id: bigint(true),
    bound: { ...boolean(), default: false },
    // Sealed (see the automation repository).
    webhook_token: varchar(160, true),
    tool_id: bigint(true),
    live_version_id: varchar(40, true),
    last_test: jsonb(true),
    created_at: stampedNow(),
    updated_at: stampedNow(),
  },
  foreignKeys: [ownedByUser('automations')],
  indices: [
    { name: 'automations_user_idx', columns: ['user_id', 'created_at'] },
    { name: 'automations_assistant_idx', columns: ['assistant_id'], where: 'assistant_id IS NOT NULL' },
  ],
});

export interface AutomationVersionRecord {
  id: string;
  automation_id: string;
  number: number;
  state: string;
  params: unknown;
  definition: unknown;
  restored_from_version_id: string | null;
  test_run_id: string | null;
  created_at: Date;
  published_at: Date | null;
}

export const automationVersions = record<AutomationVersionRecord>({
  name: 'automation_versions',
  columns: {
    id: primaryKey('automation_versions', varchar(40)),
    automation_id: varchar(40),
    number: integer(),
    state: varchar(16),
    params: jsonb(),
    definition: jsonb(),
    restored_from_version_id: varchar(40, true),
    test_run_id: varchar(40, true),
    created_at: stampedNow(),
    published_at: timestamptz(true),
  },
  foreignKeys: [references('automation_versions', 'automation_id', 'automations', 'CASCADE')],
  indices: [{ name: 'automation_versions_number_uq', columns: ['automation_id', 'number'], unique: true }],
});

export interface AutomationRunRecord {
  id: string;
  automation_id: string;
  version_id: string;
  status: string;
  state: unknown;
  started_at: Date;
  event_id: string | null;
  lease_owner: string | null;
  lease_until: Date | null;
}

export const automationRuns = record<AutomationRunRecord>({
  name: 'automation_runs',
  columns: {
    id: primaryKey('automation_runs', varchar(40)),
    automation_id: varchar(40),
    version_id: varchar(40),
    status: varchar(16),
    state: jsonb(),
    started_at: timestamptz(),
    event_id: varchar(80, true),
    lease_owner: varchar(40, true),
    lease_until: timestamptz(true),
  },
  foreignKeys: [references('automation_runs', 'automation_id', 'automations', 'CASCADE')],
  indices: [
    { name: 'automation_runs_automation_idx', columns: ['automation_id', 'started_at'] },
    {
      name: 'automation_runs_event_uq',
      columns: ['automation_id', 'event_id'],
      unique: true,
      where: 'event_id IS NOT NULL',
    },
    { name: 'automation_runs_lease_idx', columns: ['lease_until'], where: `status = 'RUNNING'` },
  ],
});

export const automationRecords = [
  automationTables,
  automationTableRows,
  automationConnections,
  automations,
  automationVersions,
  automationRuns,
];
