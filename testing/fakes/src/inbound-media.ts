import {
  InboundMedia,
  InboundMediaRepository,
  MediaBody,
  MediaSource,
  MediaStore,
  StoredMedia,
} from '@voiceplane/application';
import { InMemoryChatappMessageRepository } from './chatapp-messages';
import { copy } from './copy';

/** Inbound media records in memory, changing the in-memory messages as PostgreSQL does (see the chat-app repositories contract). */
export class InMemoryInboundMediaRepository implements InboundMediaRepository {
  private readonly rows = new Map<string, InboundMedia>();
  private readonly created = new Map<string, Date>();

  constructor(private readonly messages: InMemoryChatappMessageRepository) {}

  async create(m: {
    id: string;
    userId: number;
    senderId: number;
    messageId: number;
    source: MediaSource;
    now: Date;
  }): Promise<void> {
    if (this.rows.has(m.id)) throw new Error(`duplicate media id ${m.id}`);
    this.created.set(m.id, new Date(m.now));
    this.rows.set(m.id, {
      id: m.id,
      userId: m.userId,
      senderId: m.senderId,
      messageId: m.messageId,
      source: { ...m.source },
      status: 'pending',
      contentType: null,
    });
  }

  async find(id: string): Promise<InboundMedia | null> {
    const row = this.rows.get(id);
    return row ? copy(row) : null;
  }

  async findStoredOwned(userId: number, id: string): Promise<InboundMedia | null> {
    const row = this.rows.get(id);
    return row && row.userId === userId && row.status === 'stored' ? copy(row) : null;
  }

  async markStored(id: string, stored: { contentType: string; size: number; mediaUrl: string }): Promise<void> {
    const row = this.rows.get(id);
    if (!row) return;
    this.rows.set(id, { ...row, status: 'stored', contentType: stored.contentType });
    this.messages.setMedia(row.messageId, { mediaUrl: stored.mediaUrl, mediaError: null });
  }

  private readonly deleted: string[] = [];

  async expireCreatedBefore(cutoff: Date, note: string, limit: number): Promise<number> {
    const due = [...this.rows.values()]
      .filter((r) => this.created.get(r.id)! < cutoff)
      .sort((a, b) => this.created.get(a.id)!.getTime() - this.created.get(b.id)!.getTime())
      .slice(0, limit);
    for (const row of due) {
      this.rows.delete(row.id);
      this.deleted.push(row.id);
      this.messages.setMedia(row.messageId, { mediaUrl: null, mediaError: note.slice(0, 255) });
    }
    return due.length;
  }

  async deletedIds(limit: number): Promise<string[]> {
    return this.deleted.slice(0, limit);
  }

  async forgetDeleted(ids: readonly string[]): Promise<void> {
    for (const id of ids) {
      const at = this.deleted.indexOf(id);
      if (at >= 0) this.deleted.splice(at, 1);
    }
  }

  async markFailed(id: string, error: string): Promise<void> {
    const row = this.rows.get(id);
    if (!row || row.status === 'stored') return;
    this.rows.set(id, { ...row, status: 'failed' });
    this.messages.setMedia(row.messageId, { mediaError: error.slice(0, 255) });
  }
}

/** Media bytes in memory (see the media store contract). */
export class InMemoryMediaStore implements MediaStore {
  private readonly files = new Map<string, { bytes: Uint8Array; contentType: string }>();

  async put(key: string, body: MediaBody, contentType: string): Promise<number> {
    const chunks: Uint8Array[] = [];
    for await (const chunk of body) chunks.push(chunk);
    const bytes = new Uint8Array(Buffer.concat(chunks));
    this.files.set(key, { bytes, contentType });
    return bytes.byteLength;
  }

  async delete(key: string): Promise<void> {
    this.files.delete(key);
  }

  async open(key: string): Promise<StoredMedia | null> {
    const file = this.files.get(key);
    if (!file) return null;
    const bytes = new Uint8Array(file.bytes);
    return {
      contentType: file.contentType,
      size: bytes.byteLength,
      body: (async function* () {
        yield bytes;
      })(),
    };
  }
}
