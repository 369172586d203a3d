import { bigint, jsonb, ownedByUser, primaryKey, serialKey, timestamptz, varchar } from './columns';
import { record } from './record';

/** An open account event stream's lease (migration AccountEventStore). */
export interface EventStreamLeaseRecord {
  id: string;
  user_id: string;
  instance: string;
  expires_at: Date;
}

export const eventStreamLeases = record<EventStreamLeaseRecord>({
  name: 'event_stream_leases',
  columns: {
    id: primaryKey('event_stream_leases', varchar(40)),
    user_id: bigint(),
    instance: varchar(40),
    expires_at: timestamptz(),
  },
  foreignKeys: [ownedByUser('event_stream_leases')],
  indices: [
    { name: 'event_stream_leases_user_idx', columns: ['user_id'] },
    { name: 'event_stream_leases_instance_idx', columns: ['instance'] },
  ],
});

/** One event of an account's stream backlog. */
export interface AccountEventRecord {
  seq: string;
  id: string;
  user_id: string;
  type: string;
  at: Date;
  data: unknown;
}

export const accountEvents = record<AccountEventRecord>({
  name: 'account_events',
  columns: {
    seq: serialKey('account_events'),
    id: varchar(64),
    user_id: bigint(),
    type: varchar(32),
    at: timestamptz(),
    data: jsonb(),
  },
  foreignKeys: [ownedByUser('account_events')],
  indices: [
    { name: 'account_events_id_key', columns: ['id'], unique: true },
    { name: 'account_events_user_idx', columns: ['user_id', 'seq'] },
    { name: 'account_events_at_idx', columns: ['at'] },
  ],
});

export const accountEventRecords = [eventStreamLeases, accountEvents];
