import {
  SandboxChatappState,
  SandboxFaultArming,
  SandboxOutboxItem,
  SandboxSentMessage,
} from '@voiceplane/application';
import { Database } from '../../database';
import type { ChatappMessageRecord, ConversationMessageRecord, SandboxChatappSentRecord } from '../../records';
import { num, numOrNull } from '../rows';

/** The sandbox chat app's side in PostgreSQL, so every api instance and worker drives the same sandbox. */
export class PostgresSandboxChatappState implements SandboxChatappState {
  constructor(private readonly db: Database) {}

  /**
   * One statement: the fault check and the outbox row. Committed without waiting for the WAL flush
   * (the statement's own transaction, or the caller's when it joins one): it stands for another company's
   * records, which a voiceplane database crash would not touch either way.
   */
  async accept(m: SandboxSentMessage, faultKind: string): Promise<'sent' | 'faulted'> {
    // A fault aimed at this very sender is used before one for any of the user's operations.
    const rows = await this.db.query<{ faulted: boolean }>(
      `WITH hit AS (
         UPDATE sandbox_faults f SET remaining = f.remaining - 1
          WHERE f.id = (SELECT id FROM sandbox_faults WHERE user_id = $1 AND kind = $9 AND remaining > 0 AND (target_id IS NULL OR target_id = $2)
                         ORDER BY target_id IS NULL LIMIT 1 FOR UPDATE)
         RETURNING f.id
       ), sent AS (
         INSERT INTO sandbox_chatapp_sent (user_id, sender_id, to_phone, type, body, media_url, provider_message_id, sent_at)
         SELECT $1, $2, $3, $4, $5, $6, $7, $8 WHERE NOT EXISTS (SELECT 1 FROM hit) RETURNING id
       )
       SELECT EXISTS (SELECT 1 FROM hit) AS faulted, set_config('synchronous_commit', 'off', true) AS asynchronous_commit`,
      [m.userId, m.senderId, m.to, m.type, m.body, m.mediaUrl, m.providerMessageId, m.at, faultKind],
      { prepared: true },
    );
    return rows[0].faulted ? 'faulted' : 'sent';
  }

  async wasSent(userId: number, providerMessageId: string): Promise<boolean> {
    const row = await this.db.one<{ hit: number }>(
      `SELECT 1 AS hit FROM sandbox_chatapp_sent WHERE provider_message_id = $1 AND user_id = $2 LIMIT 1`,
      [providerMessageId, userId],
    );
    return row !== null;
  }

  armFault(a: SandboxFaultArming): Promise<number> {
    return this.db.transaction(async () => {
      await this.db.query(
        `DELETE FROM sandbox_faults WHERE user_id = $1 AND kind = $2 AND target_id IS NOT DISTINCT FROM $3`,
        [a.userId, a.kind, a.targetId],
      );
      if (a.count > 0) {
        await this.db.query(
          `INSERT INTO sandbox_faults (user_id, kind, target_id, remaining) VALUES ($1, $2, $3, $4)`,
          [a.userId, a.kind, a.targetId, a.count],
        );
      }
      return a.count;
    });
  }

  async outbox(
    userId: number,
    filter: { readonly senderId?: number; readonly to?: string },
    limit: number,
  ): Promise<SandboxOutboxItem[]> {
    // The delivery record and its message: LEFT JOINs, null when the sent message was never recorded.
    const rows = await this.db.query<
      Pick<SandboxChatappSentRecord, 'sender_id' | 'to_phone' | 'type' | 'body' | 'media_url' | 'sent_at'> & {
        message_sid: ChatappMessageRecord['message_sid'] | null;
        template_id: ConversationMessageRecord['template_id'];
      }
    >(
      `SELECT s.sender_id, s.to_phone, s.type, s.body, s.media_url, s.sent_at, c.message_sid, m.template_id
         FROM sandbox_chatapp_sent s
         LEFT JOIN chatapp_messages c ON c.provider_message_id = s.provider_message_id AND c.direction = 'outbound'
         LEFT JOIN conversation_messages m ON m.id = c.message_id
        WHERE s.user_id = $1 AND ($2::bigint IS NULL OR s.sender_id = $2) AND ($3::text IS NULL OR s.to_phone = $3)
        ORDER BY s.id DESC LIMIT $4`,
      [userId, filter.senderId ?? null, filter.to ?? null, limit],
    );
    return rows.map((r) => ({
      messageSid: r.message_sid ?? null,
      senderId: num(r.sender_id),
      to: r.to_phone,
      type: r.type,
      body: r.body ?? null,
      mediaUrl: r.media_url ?? null,
      templateId: numOrNull(r.template_id),
      at: new Date(r.sent_at),
    }));
  }
}
