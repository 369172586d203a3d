import { BusMessage, UnpublishedEvents } from '@voiceplane/application';
import { Database } from '../database';
import type { OutboxEventRecord } from '../records';

interface OutboxRow {
  id: string;
  topic: string;
  payload: unknown;
  occurred_at: Date | string;
}

export class PostgresUnpublishedEvents implements UnpublishedEvents {
  constructor(private readonly db: Database) {}

  async claimBatch(limit: number, at: Date, options: { readonly unsettled?: boolean } = {}): Promise<BusMessage[]> {
    if (!this.db.inTransaction) throw new Error('claimBatch must run inside a transaction');
    // Raw SQL: a FOR UPDATE SKIP LOCKED claim, so concurrent relays take disjoint batches without
    // waiting on each other, marked published in the same statement (undone by the caller's rollback).
    const rows = await this.db.query<OutboxRow>(
      `WITH claimed AS (
         UPDATE outbox_events SET published_at = $2, unsettled_since = CASE WHEN $3::boolean THEN $2::timestamptz END
          WHERE seq IN (SELECT seq FROM outbox_events WHERE published_at IS NULL ORDER BY seq LIMIT $1 FOR UPDATE SKIP LOCKED)
         RETURNING seq, id, topic, payload, occurred_at)
       SELECT id, topic, payload, occurred_at FROM claimed ORDER BY seq`,
      [limit, at, options.unsettled === true],
    );
    return rows.map((r) => ({
      id: r.id,
      topic: r.topic,
      payload: r.payload,
      occurredAt: new Date(r.occurred_at).toISOString(),
    }));
  }

  async settled(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db.query(
      `UPDATE outbox_events SET unsettled_since = NULL WHERE id = ANY($1::varchar[]) AND unsettled_since IS NOT NULL`,
      [ids],
    );
  }

  async reopenUnsettled(before: Date): Promise<number> {
    const rows = await this.db.query<Pick<OutboxEventRecord, 'seq'>>(
      `UPDATE outbox_events SET published_at = NULL, unsettled_since = NULL WHERE unsettled_since < $1 RETURNING seq`,
      [before],
    );
    return rows.length;
  }
}
