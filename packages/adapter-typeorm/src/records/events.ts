import { integer, jsonb, primaryKey, serialKey, stampedNow, text, timestamptz, uniqueColumn, varchar } from './columns';
import { record } from './record';

/** The event backbone: the transactional outbox, processed-event marks and the durable job table. */

export interface OutboxEventRecord {
  seq: string;
  id: string;
  topic: string;
  payload: unknown;
  occurred_at: Date;
  published_at: Date | null;
  unsettled_since: Date | null;
}

export const outboxEvents = record<OutboxEventRecord>({
  name: 'outbox_events',
  columns: {
    seq: serialKey('outbox_events'),
    id: varchar(40),
    topic: varchar(100),
    payload: jsonb(),
    occurred_at: stampedNow(),
    published_at: timestamptz(true),
    unsettled_since: timestamptz(true),
  },
  uniques: [uniqueColumn('outbox_events', 'id')],
  indices: [
    { name: 'outbox_events_unpublished_idx', columns: ['seq'], where: 'published_at IS NULL' },
    { name: 'outbox_events_published_age_idx', columns: ['published_at'], where: 'published_at IS NOT NULL' },
    { name: 'outbox_events_unsettled_idx', columns: ['unsettled_since'], where: 'unsettled_since IS NOT NULL' },
  ],
});

export interface ProcessedEventRecord {
  consumer: string;
  event_id: string;
  processed_at: Date;
}

export const processedEvents = record<ProcessedEventRecord>({
  name: 'processed_events',
  columns: {
    consumer: primaryKey('processed_events', varchar(100)),
    event_id: primaryKey('processed_events', varchar(40)),
    processed_at: stampedNow(),
  },
  indices: [{ name: 'processed_events_age_idx', columns: ['processed_at'] }],
});

/** The NOTIFY trigger `scheduled_jobs_notify` (jobs due at once) lives in the migration only: TypeORM has no word for triggers. */
export interface ScheduledJobRecord {
  id: string;
  kind: string;
  key: string | null;
  payload: unknown;
  run_at: Date;
  attempts: number;
  locked_until: Date | null;
  lease_token: string | null;
  last_error: string | null;
  buried_at: Date | null;
  created_at: Date;
}

export const scheduledJobs = record<ScheduledJobRecord>({
  name: 'scheduled_jobs',
  columns: {
    id: serialKey('scheduled_jobs'),
    kind: varchar(100),
    key: varchar(200, true),
    payload: jsonb(),
    run_at: timestamptz(),
    attempts: { ...integer(), default: 0 },
    locked_until: timestamptz(true),
    lease_token: varchar(40, true),
    last_error: text(true),
    buried_at: timestamptz(true),
    created_at: stampedNow(),
  },
  indices: [
    { name: 'scheduled_jobs_key_uq', columns: ['key'], unique: true },
    { name: 'scheduled_jobs_due_idx', columns: ['run_at'], where: 'buried_at IS NULL' },
  ],
});

export const eventRecords = [outboxEvents, processedEvents, scheduledJobs];
