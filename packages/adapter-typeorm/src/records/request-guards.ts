import { char, integer, primaryKey, stampedNow, text, timestamptz, varchar } from './columns';
import { record } from './record';

/** The cross-instance state behind rate limits and idempotent requests (migrations Foundation, IdempotencyLease, RequestFastPath). */

export interface RateLimitCounterRecord {
  bucket_key: string;
  window_start: Date;
  hits: number;
  last_grant: number;
  expires_at: Date;
}

export const rateLimitCounters = record<RateLimitCounterRecord>({
  name: 'rate_limit_counters',
  columns: {
    bucket_key: primaryKey('rate_limit_counters', varchar(300)),
    window_start: primaryKey('rate_limit_counters', timestamptz()),
    hits: integer(),
    last_grant: { type: 'integer', default: 0 },
    expires_at: timestamptz(),
  },
  indices: [{ name: 'rate_limit_counters_expiry_idx', columns: ['expires_at'] }],
});

export interface IdempotencyKeyRecord {
  scope: string;
  fingerprint: string;
  state: string;
  response_status: number | null;
  response_body: string | null;
  created_at: Date;
  expires_at: Date;
  lease_expires_at: Date | null;
}

export const idempotencyKeys = record<IdempotencyKeyRecord>({
  name: 'idempotency_keys',
  columns: {
    scope: primaryKey('idempotency_keys', varchar(600)),
    fingerprint: char(64),
    state: varchar(16),
    response_status: integer(true),
    response_body: text(true),
    created_at: stampedNow(),
    expires_at: timestamptz(),
    lease_expires_at: timestamptz(true),
  },
  indices: [{ name: 'idempotency_keys_expiry_idx', columns: ['expires_at'] }],
});

export const requestGuardRecords = [rateLimitCounters, idempotencyKeys];
