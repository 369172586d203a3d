import { InboundMedia, InboundMediaRepository, MediaSource } from '@voiceplane/application';
import { Database } from '../../database';
import { num } from '../rows';

const COLUMNS = 'id, user_id, sender_id, message_id, source_kind, source_ref, status, content_type';

function toMedia(r: Record<string, unknown>): InboundMedia {
  return {
    id: r.id as string, userId: num(r.user_id), senderId: num(r.sender_id), messageId: num(r.message_id),
    source: { kind: r.source_kind, ref: r.source_ref } as MediaSource, status: r.status as InboundMedia['status'],
    contentType: (r.content_type as string | null) ?? null,
  };
}

/** Media rows and the message fields they drive (`media_url`, `media_error`), changed together. */
export class TypeormInboundMediaRepository implements InboundMediaRepository {
  constructor(private readonly db: Database) {}

  async create(m: { id: string; userId: number; senderId: number; messageId: number; source: MediaSource; now: Date }): Promise<void> {
    await this.db.query(
      `INSERT INTO chatapp_media (id, user_id, sender_id, message_id, source_kind, source_ref, status, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, 'pending', $7, $7)`,
      [m.id, m.userId, m.senderId, m.messageId, m.source.kind, m.source.ref, m.now],
    );
  }

  async find(id: string): Promise<InboundMedia | null> {
    const row = await this.db.one(`SELECT ${COLUMNS} FROM chatapp_media WHERE id = $1`, [id]);
    return row === null ? null : toMedia(row);
  }

  async findStoredOwned(userId: number, id: string): Promise<InboundMedia | null> {
    const row = await this.db.one(`SELECT ${COLUMNS} FROM chatapp_media WHERE id = $1 AND user_id = $2 AND status = 'stored'`, [id, userId]);
    return row === null ? null : toMedia(row);
  }

  async markStored(id: string, stored: { contentType: string; size: number; mediaUrl: string }, now: Date): Promise<void> {
    await this.db.transaction(async () => {
      const row = await this.db.one<{ message_id: string }>(
        `UPDATE chatapp_media SET status = 'stored', content_type = $2, size_bytes = $3, updated_at = $4 WHERE id = $1 RETURNING message_id`,
        [id, stored.contentType, stored.size, now],
      );
      if (row !== null) await this.db.query(`UPDATE conversation_messages SET media_url = $2, media_error = NULL WHERE id = $1`, [row.message_id, stored.mediaUrl]);
    });
  }

  async markFailed(id: string, error: string, now: Date): Promise<void> {
    await this.db.transaction(async () => {
      const row = await this.db.one<{ message_id: string }>(
        `UPDATE chatapp_media SET status = 'failed', updated_at = $2 WHERE id = $1 AND status <> 'stored' RETURNING message_id`, [id, now],
      );
      if (row !== null) await this.db.query(`UPDATE conversation_messages SET media_error = $2 WHERE id = $1`, [row.message_id, error.slice(0, 255)]);
    });
  }
}
