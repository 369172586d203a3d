import { BillingProvider } from '@voiceplane/domain';
import { BillingInbox, ProviderBillingEvent, StoredBillingEvent } from '@voiceplane/application';
import { Database } from '../../database';
import { BillingEventRecord } from '../../records';
import { num } from '../rows';

export class TypeormBillingInbox implements BillingInbox {
  constructor(private readonly db: Database) {}

  async store(provider: BillingProvider, e: ProviderBillingEvent, receivedAt: Date): Promise<number | null> {
    // Raw SQL: ON CONFLICT DO NOTHING RETURNING tells in one statement whether this delivery is the first.
    const row = await this.db.one<Pick<BillingEventRecord, 'id'>>(
      `INSERT INTO billing_events (provider, event_id, type, payload, received_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (provider, event_id) DO NOTHING RETURNING id`,
      [provider, e.id.slice(0, 255), e.type.slice(0, 255), JSON.stringify(e.payload), receivedAt],
    );
    return row ? num(row.id) : null;
  }

  async find(inboxId: number): Promise<StoredBillingEvent | null> {
    const r = await this.db.one<Omit<BillingEventRecord, 'received_at'>>(
      `SELECT id, provider, event_id, type, payload, processed_at FROM billing_events WHERE id = $1`,
      [inboxId],
    );
    if (!r) return null;
    return {
      inboxId: num(r.id),
      provider: r.provider as BillingProvider,
      id: r.event_id,
      type: r.type,
      payload: r.payload,
      processedAt: r.processed_at,
    };
  }

  async markProcessed(inboxId: number, at: Date): Promise<void> {
    await this.db.query(`UPDATE billing_events SET processed_at = $2 WHERE id = $1 AND processed_at IS NULL`, [
      inboxId,
      at,
    ]);
  }

  async purgeProcessedBefore(cutoff: Date, limit: number): Promise<number> {
    // Raw SQL: a bounded batch, so one sweep never holds a long lock.
    const rows = await this.db.query<Pick<BillingEventRecord, 'id'>>(
      `DELETE FROM billing_events WHERE id IN (SELECT id FROM billing_events WHERE processed_at < $1 ORDER BY id LIMIT $2) RETURNING id`,
      [cutoff, limit],
    );
    return rows.length;
  }
}
