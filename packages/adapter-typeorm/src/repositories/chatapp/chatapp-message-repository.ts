import { ChatappMessage, Conversation, err, ok, Result } from '@voiceplane/domain';
import {
  ChatappMessageRepository,
  DeliveryStateChange,
  NewChatappMessage,
  NewUnsentMessage,
  StoredChatappMessage,
} from '@voiceplane/application';
import { Database } from '../../database';
import { num } from '../rows';
import { CHATAPP_COLUMNS, ChatappMessageRow, toChatappMessage } from './message-rows';
import { conversationSaveParams, SAVE } from './conversation-repository';

/** Built once: a hot statement's text is the prepared statement's key (see Database.query). */
const RECORD = `WITH message AS (
   INSERT INTO conversation_messages (conversation_id, direction, source, type, body, media_url, media_type, filename, template_id, created_at)
   VALUES ($3, $4, $14, $15, $16, $17, $18, $19, $20, $13) RETURNING id
 )
 INSERT INTO chatapp_messages (user_id, message_id, sender_id, conversation_id, direction, from_phone, to_phone, message_sid, provider_message_id,
   status, cost, from_allowance, status_history, created_at, updated_at)
 SELECT $1, message.id, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13 FROM message RETURNING ${CHATAPP_COLUMNS}`;

/**
 * The conversation's save (its parameters after RECORD's 20) as a further data-modifying CTE of
 * RECORD. The message rows reference the conversation; their foreign-key checks run at the end of
 * the statement, on the row as saved, under the lock the caller holds.
 */
const RECORD_SAVING = RECORD.replace(
  /^WITH /,
  `WITH saved AS (${SAVE.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + 20}`)}), `,
);

export class TypeormChatappMessageRepository implements ChatappMessageRepository {
  constructor(private readonly db: Database) {}

  /** One statement for both rows: a send holds the user's balance lock, so every round trip counts. */
  async record(m: NewChatappMessage): Promise<StoredChatappMessage> {
    return this.stored(await this.db.one<ChatappMessageRow>(RECORD, recordParams(m), { prepared: true }));
  }

  async recordSaving(conversation: Conversation, m: NewChatappMessage): Promise<StoredChatappMessage> {
    return this.stored(
      await this.db.one<ChatappMessageRow>(
        RECORD_SAVING,
        [...recordParams(m), ...conversationSaveParams(conversation)],
        { prepared: true },
      ),
    );
  }

  private stored(row: ChatappMessageRow | null): StoredChatappMessage {
    const chatapp = toChatappMessage(row!);
    return { messageId: chatapp.messageId, chatapp };
  }

  async recordUnsent(m: NewUnsentMessage): Promise<number> {
    const row = await this.db.one<{ id: string }>(
      `INSERT INTO conversation_messages (conversation_id, direction, source, type, body, status, error_code, created_at)
       VALUES ($1, 'outbound', $2, 'text', $3, 'failed', $4, $5) RETURNING id`,
      [m.conversationId, m.source, m.body, m.errorCode, m.now],
    );
    return num(row!.id);
  }

  async findOwnedBySid(userId: number, messageSid: string): Promise<ChatappMessage | null> {
    const row = await this.db.one<ChatappMessageRow>(
      `SELECT ${CHATAPP_COLUMNS} FROM chatapp_messages WHERE message_sid = $1 AND user_id = $2`,
      [messageSid, userId],
    );
    return row === null ? null : toChatappMessage(row);
  }

  async findByProviderMessageId(providerMessageId: string): Promise<ChatappMessage | null> {
    const row = await this.db.one<ChatappMessageRow>(
      `SELECT ${CHATAPP_COLUMNS} FROM chatapp_messages WHERE provider_message_id = $1 AND direction = 'outbound' LIMIT 1`,
      [providerMessageId],
    );
    return row === null ? null : toChatappMessage(row);
  }

  updateDelivery<A, E>(
    id: number,
    decide: (message: ChatappMessage) => Promise<Result<DeliveryStateChange<A>, E>>,
  ): Promise<Result<A, E | 'not_found'>> {
    return this.db.transaction(async () => {
      const row = await this.db.one<ChatappMessageRow>(
        `SELECT ${CHATAPP_COLUMNS} FROM chatapp_messages WHERE id = $1 FOR UPDATE`,
        [id],
      );
      if (row === null) return err('not_found' as const);
      const decided = await decide(toChatappMessage(row));
      if (!decided.ok) return decided;
      const { next, at } = decided.value;
      await this.db.query(
        `UPDATE chatapp_messages SET status = $2, error_code = $3, error_message = $4, status_history = $5, updated_at = $6 WHERE id = $1`,
        [
          id,
          next.status,
          next.errorCode,
          next.errorMessage?.slice(0, 1024) ?? null,
          JSON.stringify(next.statusHistory.map((h) => ({ status: h.status, at: h.at.toISOString() }))),
          at,
        ],
      );
      return ok(decided.value.answer);
    });
  }

  async allowanceUsed(userId: number, since: Date): Promise<number> {
    const row = await this.db.one<{ n: string }>(
      `SELECT count(*) AS n FROM chatapp_messages WHERE user_id = $1 AND from_allowance AND created_at >= $2`,
      [userId, since],
    );
    return num(row?.n);
  }
}

function recordParams(m: NewChatappMessage): unknown[] {
  const history = m.status === 'received' ? [] : [{ status: m.status, at: m.now.toISOString() }];
  return [
    m.userId,
    m.senderId,
    m.conversationId,
    m.direction,
    m.from,
    m.to,
    m.messageSid,
    m.providerMessageId,
    m.status,
    m.cost,
    m.fromAllowance,
    JSON.stringify(history),
    m.now,
    m.source,
    m.type,
    m.body,
    m.media?.url ?? null,
    m.media?.mediaType ?? null,
    m.media?.filename ?? null,
    m.templateId,
  ];
}
