import { BusMessage, UnpublishedEvents } from '@voiceplane/application';
import { Database } from '../database';

interface OutboxRow {
  id: string;
  topic: string;
  payload: unknown;
  occurred_at: Date | string;
}

export class PostgresUnpublishedEvents implements UnpublishedEvents {
  constructor(private readonly db: Database) {}

  async claimBatch(limit: number, at: Date): Promise<BusMessage[]> {
    if (!this.db.inTransaction) throw new Error('claimBatch must run inside a transaction');
    // Raw SQL: a FOR UPDATE SKIP LOCKED claim, so concurrent relays take disjoint batches without
    // waiting on each other, marked published in the same statement (undone by the caller's rollback).
    const rows = await this.db.query<OutboxRow>(
      `WITH claimed AS (
         UPDATE outbox_events SET published_at = $2
          WHERE seq IN (SELECT seq FROM outbox_events WHERE published_at IS NULL ORDER BY seq LIMIT $1 FOR UPDATE SKIP LOCKED)
         RETURNING seq, id, topic, payload, occurred_at)
       SELECT id, topic, payload, occurred_at FROM claimed ORDER BY seq`,
      [limit, at],
    );
    return rows.map((r) => ({ id: r.id, topic: r.topic, payload: r.payload, occurredAt: new Date(r.occurred_at).toISOString() }));
  }
}
