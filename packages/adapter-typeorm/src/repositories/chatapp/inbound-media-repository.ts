import { InboundMedia, InboundMediaRepository, MediaSource } from '@voiceplane/application';
import { Database } from '../../database';
import type { ChatappMediaRecord } from '../../records';
import { num } from '../rows';

const COLUMNS = 'id, user_id, sender_id, message_id, source_kind, source_ref, status, content_type';

type MediaRow = Pick<
  ChatappMediaRecord,
  'id' | 'user_id' | 'sender_id' | 'message_id' | 'source_kind' | 'source_ref' | 'status' | 'content_type'
>;

function toMedia(r: MediaRow): InboundMedia {
  return {
    id: r.id,
    userId: num(r.user_id),
    senderId: num(r.sender_id),
    messageId: num(r.message_id),
    source: { kind: r.source_kind, ref: r.source_ref } as MediaSource,
    status: r.status as InboundMedia['status'],
    contentType: r.content_type ?? null,
  };
}

/** Media rows and the message fields they drive (`media_url`, `media_error`), changed together. */
export class TypeormInboundMediaRepository implements InboundMediaRepository {
  constructor(private readonly db: Database) {}

  async create(m: {
    id: string;
    userId: number;
    senderId: number;
    messageId: number;
    source: MediaSource;
    now: Date;
  }): Promise<void> {
    await this.db.query(
      `INSERT INTO chatapp_media (id, user_id, sender_id, message_id, source_kind, source_ref, status, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, 'pending', $7, $7)`,
      [m.id, m.userId, m.senderId, m.messageId, m.source.kind, m.source.ref, m.now],
    );
  }

  async find(id: string): Promise<InboundMedia | null> {
    const row = await this.db.one<MediaRow>(`SELECT ${COLUMNS} FROM chatapp_media WHERE id = $1`, [id]);
    return row === null ? null : toMedia(row);
  }

  async findStoredOwned(userId: number, id: string): Promise<InboundMedia | null> {
    const row = await this.db.one<MediaRow>(
      `SELECT ${COLUMNS} FROM chatapp_media WHERE id = $1 AND user_id = $2 AND status = 'stored'`,
      [id, userId],
    );
    return row === null ? null : toMedia(row);
  }

  async markStored(
    id: string,
    stored: { contentType: string; size: number; mediaUrl: string },
    now: Date,
  ): Promise<void> {
    await this.db.transaction(async () => {
      const row = await this.db.one<{ message_id: string }>(
        `UPDATE chatapp_media SET status = 'stored', content_type = $2, size_bytes = $3, updated_at = $4 WHERE id = $1 RETURNING message_id`,
        [id, stored.contentType, stored.size, now],
      );
      if (row !== null) {
        await this.db.query(`UPDATE conversation_messages SET media_url = $2, media_error = NULL WHERE id = $1`, [
          row.message_id,
          stored.mediaUrl,
        ]);
      }
    });
  }

  /** The trigger on `chatapp_media` lists each removed row in `chatapp_media_deletions`. */
  async expireCreatedBefore(cutoff: Date, note: string, limit: number): Promise<number> {
    return this.db.transaction(async () => {
      const rows = await this.db.query<{ message_id: string }>(
        `DELETE FROM chatapp_media WHERE id IN (SELECT id FROM chatapp_media WHERE created_at < $1 ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED)
         RETURNING message_id`,
        [cutoff, limit],
      );
      if (rows.length > 0) {
        await this.db.query(
          `UPDATE conversation_messages SET media_url = NULL, media_error = $2 WHERE id = ANY($1::bigint[])`,
          [rows.map((r) => r.message_id), note.slice(0, 255)],
        );
      }
      return rows.length;
    });
  }

  async deletedIds(limit: number): Promise<string[]> {
    const rows = await this.db.query<{ media_id: string }>(
      `SELECT media_id FROM chatapp_media_deletions ORDER BY deleted_at, media_id LIMIT $1`,
      [limit],
    );
    return rows.map((r) => r.media_id);
  }

  async forgetDeleted(ids: readonly string[]): Promise<void> {
    if (ids.length > 0) {
      await this.db.query(`DELETE FROM chatapp_media_deletions WHERE media_id = ANY($1::varchar[])`, [[...ids]]);
    }
  }

  async markFailed(id: string, error: string, now: Date): Promise<void> {
    await this.db.transaction(async () => {
      const row = await this.db.one<{ message_id: string }>(
        `UPDATE chatapp_media SET status = 'failed', updated_at = $2 WHERE id = $1 AND status <> 'stored' RETURNING message_id`,
        [id, now],
      );
      if (row !== null) {
        await this.db.query(`UPDATE conversation_messages SET media_error = $2 WHERE id = $1`, [
          row.message_id,
          error.slice(0, 255),
        ]);
      }
    });
  }
}
