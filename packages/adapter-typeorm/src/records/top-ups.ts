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
  serialKey,
  text,
  timestamptz,
  varchar,
} from './columns';
import { record } from './record';

/** Paid top-ups, auto-recharge, provider profiles, the provider-event inbox and sandbox faults (BillingGateway). */

export interface TopUpRecord {
  id: string;
  user_id: string;
  amount: string;
  currency: string;
  status: string;
  trigger: string;
  checkout_url: string | null;
  provider: string;
  provider_reference: string | null;
  failure_reason: string | null;
  created_at: Date;
  completed_at: Date | null;
  unreconcilable: string | null;
  reconcile_checked_at: Date | null;
}

export const topUps = record<TopUpRecord>({
  name: 'top_ups',
  columns: {
    id: serialKey('top_ups'),
    user_id: bigint(),
    amount: numeric(10, 2),
    currency: { ...char(3), default: () => "'USD'" },
    status: varchar(16),
    trigger: varchar(16),
    checkout_url: text(true),
    provider: varchar(16),
    provider_reference: varchar(255, true),
    failure_reason: varchar(255, true),
    created_at: timestamptz(),
    completed_at: timestamptz(true),
    unreconcilable: varchar(64, true),
    reconcile_checked_at: timestamptz(true),
  },
  foreignKeys: [ownedByUser('top_ups')],
  checks: [
    columnCheck('top_ups', 'status', `status IN ('pending', 'succeeded', 'failed', 'expired')`),
    columnCheck('top_ups', 'trigger', `trigger IN ('checkout', 'auto')`),
  ],
  indices: [
    ownerListIndex('top_ups'),
    {
      name: 'top_ups_reconcile_idx',
      columns: ['id'],
      where: `status IN ('pending', 'failed') AND unreconcilable IS NULL`,
    },
  ],
});

export interface AutoRechargeRecord {
  user_id: string;
  enabled: boolean;
  threshold: string;
  amount: string;
  consecutive_failures: number;
  last_attempt_at: Date | null;
  last_error: string | null;
  in_flight_top_up_id: string | null;
  updated_at: Date;
}

export const autoRecharges = record<AutoRechargeRecord>({
  name: 'auto_recharges',
  columns: {
    user_id: primaryKey('auto_recharges', bigint()),
    enabled: { ...boolean(), default: false },
    threshold: numeric(10, 2),
    amount: numeric(10, 2),
    consecutive_failures: { ...integer(), default: 0 },
    last_attempt_at: timestamptz(true),
    last_error: varchar(255, true),
    in_flight_top_up_id: bigint(true),
    updated_at: timestamptz(),
  },
  foreignKeys: [ownedByUser('auto_recharges')],
});

export interface BillingProfileRecord {
  user_id: string;
  provider: string;
  customer_reference: string | null;
  payment_method_reference: string | null;
  updated_at: Date;
}

export const billingProfiles = record<BillingProfileRecord>({
  name: 'billing_profiles',
  columns: {
    user_id: primaryKey('billing_profiles', bigint()),
    provider: primaryKey('billing_profiles', varchar(16)),
    customer_reference: varchar(255, true),
    payment_method_reference: varchar(255, true),
    updated_at: timestamptz(),
  },
  foreignKeys: [ownedByUser('billing_profiles')],
});

export interface BillingEventRecord {
  id: string;
  provider: string;
  event_id: string;
  type: string;
  payload: unknown;
  received_at: Date;
  processed_at: Date | null;
}

export const billingEvents = record<BillingEventRecord>({
  name: 'billing_events',
  columns: {
    id: serialKey('billing_events'),
    provider: varchar(16),
    event_id: varchar(255),
    type: varchar(255),
    payload: jsonb(),
    received_at: timestamptz(),
    processed_at: timestamptz(true),
  },
  indices: [{ name: 'billing_events_event_uq', columns: ['provider', 'event_id'], unique: true }],
});

export interface SandboxBillingFaultRecord {
  user_id: string;
  remaining: number;
}

export const sandboxBillingFaults = record<SandboxBillingFaultRecord>({
  name: 'sandbox_billing_faults',
  columns: {
    user_id: primaryKey('sandbox_billing_faults', bigint()),
    remaining: integer(),
  },
  foreignKeys: [ownedByUser('sandbox_billing_faults')],
});

export const topUpRecords = [topUps, autoRecharges, billingProfiles, billingEvents, sandboxBillingFaults];
