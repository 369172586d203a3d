import { JsonObject, JsonValue } from '@voiceplane/domain';
import { ChatappInboundItem, ChatappInbox, IngressProvider, StoredInboundItem } from '@voiceplane/application';
import { Database } from '../../database';
import type { ChatappInboxItemRecord } from '../../records';
import { dateOrNull, num } from '../rows';

/** Item fields that are instants: JSON keeps them as ISO text, the handler gets them back as dates. */
const INSTANTS = ['receivedAt', 'at', 'expiresAt'] as const;

/** The `item` document: the inbound item as `add` stored it (JSON). */
function revive(stored: JsonObject): ChatappInboundItem {
  const item: { [key: string]: JsonValue | Date } = { ...stored };
  for (const key of INSTANTS) if (typeof item[key] === 'string') item[key] = new Date(item[key] as string);
  return item as unknown as ChatappInboundItem;
}

export class PostgresChatappInbox implements ChatappInbox {
  constructor(private readonly db: Database) {}

  async add(provider: IngressProvider, items: readonly ChatappInboundItem[], receivedAt: Date): Promise<number[]> {
    if (items.length === 0) return [];
    // Raw SQL: one multi-row insert whose ON CONFLICT DO NOTHING RETURNING names exactly the new rows,
    // so concurrent deliveries of one notification store (and queue) each item once.
    const rows = await this.db.query<{ id: string }>(
      `INSERT INTO chatapp_inbox_items (provider, provider_item_id, kind, item, received_at)
       SELECT $1, t.provider_item_id, t.kind, t.item, $5
       FROM unnest($2::varchar[], $3::varchar[], $4::jsonb[]) AS t(provider_item_id, kind, item)
       ON CONFLICT (provider, provider_item_id) DO NOTHING
       RETURNING id`,
      [
        provider,
        items.map((i) => i.providerItemId),
        items.map((i) => i.kind),
        items.map((i) => JSON.stringify(i)),
        receivedAt,
      ],
    );
    return rows.map((r) => num(r.id)).sort((a, b) => a - b);
  }

  async find(id: number): Promise<StoredInboundItem | null> {
    const row = await this.db.one<Pick<ChatappInboxItemRecord, 'id' | 'provider' | 'item' | 'processed_at'>>(
      `SELECT id, provider, item, processed_at FROM chatapp_inbox_items WHERE id = $1`,
      [id],
    );
    if (row === null) return null;
    return {
      id: num(row.id),
      provider: row.provider as IngressProvider,
      item: revive(row.item as JsonObject),
      processedAt: dateOrNull(row.processed_at),
    };
  }

  async markProcessed(id: number, at: Date): Promise<void> {
    await this.db.query(`UPDATE chatapp_inbox_items SET processed_at = $2 WHERE id = $1 AND processed_at IS NULL`, [
      id,
      at,
    ]);
  }

  async purgeProcessedBefore(cutoff: Date, limit: number): Promise<number> {
    const rows = await this.db.query<{ '?column?': number }>(
      `DELETE FROM chatapp_inbox_items WHERE id IN (SELECT id FROM chatapp_inbox_items WHERE processed_at < $1 ORDER BY processed_at LIMIT $2) RETURNING 1`,
      [cutoff, limit],
    );
    return rows.length;
  }
}
