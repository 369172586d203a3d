import { jsonb, serialKey, timestamptz, varchar } from './columns';
import { record } from './record';

/** Verified chat-app provider ingress items, one per provider item id. */
export interface ChatappInboxItemRecord {
  id: string;
  provider: string;
  provider_item_id: string;
  kind: string;
  item: unknown;
  received_at: Date;
  processed_at: Date | null;
}

export const chatappInboxItems = record<ChatappInboxItemRecord>({
  name: 'chatapp_inbox_items',
  columns: {
    id: serialKey('chatapp_inbox_items'),
    provider: varchar(20),
    provider_item_id: varchar(512),
    kind: varchar(40),
    item: jsonb(),
    received_at: timestamptz(),
    processed_at: timestamptz(true),
  },
  uniques: [{ name: 'chatapp_inbox_items_provider_provider_item_id_key', columns: ['provider', 'provider_item_id'] }],
  indices: [
    { name: 'chatapp_inbox_items_processed_idx', columns: ['processed_at'], where: 'processed_at IS NOT NULL' },
  ],
});

export const chatappInboxRecords = [chatappInboxItems];
