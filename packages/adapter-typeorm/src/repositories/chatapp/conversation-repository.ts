import { Conversation, ConversationMessage, ConversationStatus, ConversationType } from '@voiceplane/domain';
import {
  ConversationCursor,
  ConversationFilter,
  ConversationRepository,
  CursorPage,
  cursorPage,
  NewConversationKey,
} from '@voiceplane/application';
import { Database } from '../../database';
import type { ConversationRecord } from '../../records';
import { dateOrNull, num, numOrNull } from '../rows';
import { MESSAGE_SELECT, MessageRow, toConversationMessage } from './message-rows';

export const CONVERSATION_COLUMNS = `id, uuid, user_id, sender_id, assistant_id, customer_phone, customer_name, status, ai_enabled, ai_disabled_at, ai_enabled_at,
  message_count, last_message_at, last_customer_message_at, last_template_sent_at, ended_count, ended_at, created_at, updated_at, type, variables, external_identifier`;
const COLUMNS = CONVERSATION_COLUMNS;
/** Built once: a hot statement's text is the prepared statement's key (see Database.query). */
/**
 * Conversation row locks are NO KEY UPDATE: they serialise the conversation's changes without
 * making the rows that reference it (messages, calls) wait. Taken after the account's balance
 * lock on every path that takes both (see docs/security.md, Locking).
 */
const LOCK = `SELECT ${COLUMNS} FROM conversations WHERE sender_id = $1 AND customer_phone = $2 FOR NO KEY UPDATE`;

/** Every changeable column of a conversation; `$1` is its id (see `conversationSaveParams`). */
export const SAVE = `UPDATE conversations SET assistant_id = $2, customer_name = $3, status = $4, ai_enabled = $5, ai_disabled_at = $6, ai_enabled_at = $7,
    message_count = $8, last_message_at = $9, last_customer_message_at = $10, last_template_sent_at = $11, ended_count = $12, ended_at = $13,
    updated_at = $14, variables = $15
  WHERE id = $1`;

export function conversationSaveParams(c: Conversation): unknown[] {
  return [
    c.id,
    c.assistantId,
    c.customerName,
    c.status,
    c.aiEnabled,
    c.aiDisabledAt,
    c.aiEnabledAt,
    c.messageCount,
    c.lastMessageAt,
    c.window.lastCustomerMessageAt,
    c.window.lastTemplateSentAt,
    c.endedCount,
    c.endedAt,
    c.updatedAt,
    c.variables === null ? null : JSON.stringify(c.variables),
  ];
}

/** COLUMNS is every column of `conversations`: rows are whole `ConversationRecord`s. */
export function toConversation(r: ConversationRecord): Conversation {
  return {
    id: num(r.id),
    uuid: r.uuid,
    type: r.type as ConversationType,
    userId: num(r.user_id),
    senderId: numOrNull(r.sender_id),
    assistantId: numOrNull(r.assistant_id),
    customerPhone: r.customer_phone ?? null,
    variables: r.variables ?? null,
    externalIdentifier: r.external_identifier ?? null,
    customerName: r.customer_name ?? null,
    status: r.status as ConversationStatus,
    aiEnabled: r.ai_enabled,
    aiDisabledAt: dateOrNull(r.ai_disabled_at),
    aiEnabledAt: dateOrNull(r.ai_enabled_at),
    messageCount: num(r.message_count),
    lastMessageAt: dateOrNull(r.last_message_at),
    window: {
      lastCustomerMessageAt: dateOrNull(r.last_customer_message_at),
      lastTemplateSentAt: dateOrNull(r.last_template_sent_at),
    },
    endedCount: num(r.ended_count),
    endedAt: dateOrNull(r.ended_at),
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
  };
}

/** Sort key of the list: conversations without a message sort as of their creation. */
const RECENT = 'COALESCE(last_message_at, created_at)';

export class TypeormConversationRepository implements ConversationRepository {
  constructor(private readonly db: Database) {}

  async find(senderId: number, customerPhone: string): Promise<Conversation | null> {
    const row = await this.db.one<ConversationRecord>(
      `SELECT ${COLUMNS} FROM conversations WHERE sender_id = $1 AND customer_phone = $2`,
      [senderId, customerPhone],
    );
    return row === null ? null : toConversation(row);
  }

  async lockOrCreate(k: NewConversationKey): Promise<Conversation> {
    await this.db.query(
      `INSERT INTO conversations (uuid, user_id, sender_id, customer_phone, status, ai_enabled, message_count, ended_count, created_at, updated_at)
       VALUES ($1, $2, $3, $4, 'open', true, 0, 0, $5, $5) ON CONFLICT (sender_id, customer_phone) DO NOTHING`,
      [k.uuid, k.userId, k.senderId, k.customerPhone, k.now],
    );
    return (await this.lock(k.senderId, k.customerPhone))!;
  }

  async lock(senderId: number, customerPhone: string): Promise<Conversation | null> {
    const row = await this.db.one<ConversationRecord>(LOCK, [senderId, customerPhone], { prepared: true });
    return row === null ? null : toConversation(row);
  }

  async lockById(id: number): Promise<Conversation | null> {
    const row = await this.db.one<ConversationRecord>(
      `SELECT ${COLUMNS} FROM conversations WHERE id = $1 FOR NO KEY UPDATE`,
      [id],
    );
    return row === null ? null : toConversation(row);
  }

  async save(c: Conversation): Promise<void> {
    await this.db.query(SAVE, conversationSaveParams(c), { prepared: true });
  }

  async findOwned(
    userId: number,
    ref: { readonly id: number } | { readonly uuid: string },
  ): Promise<Conversation | null> {
    const row =
      'id' in ref
        ? await this.db.one<ConversationRecord>(`SELECT ${COLUMNS} FROM conversations WHERE id = $1 AND user_id = $2`, [
            ref.id,
            userId,
          ])
        : await this.db.one<ConversationRecord>(
            `SELECT ${COLUMNS} FROM conversations WHERE uuid = $1 AND user_id = $2`,
            [ref.uuid, userId],
          );
    return row === null ? null : toConversation(row);
  }

  async list(
    userId: number,
    filter: ConversationFilter,
    cursor: ConversationCursor | null,
    perPage: number,
  ): Promise<CursorPage<Conversation>> {
    const params: unknown[] = [userId];
    const where = ['user_id = $1'];
    const add = (sql: string, value: unknown) => {
      params.push(value);
      where.push(sql.replace('?', `$${params.length}`));
    };
    if (filter.senderId !== undefined) add('sender_id = ?', filter.senderId);
    if (filter.status !== undefined) add('status = ?', filter.status);
    if (filter.aiEnabled !== undefined) add('ai_enabled = ?', filter.aiEnabled);
    if (filter.customerPhone !== undefined) add('customer_phone = ?', filter.customerPhone);
    if (filter.type !== undefined) add('type = ?', filter.type);
    if (filter.assistantId !== undefined) add('assistant_id = ?', filter.assistantId);
    if (filter.externalIdentifier !== undefined) add('external_identifier = ?', filter.externalIdentifier);
    if (filter.senderPhone !== undefined)
      add('sender_id IN (SELECT s.id FROM chatapp_senders s WHERE s.phone_number = ?)', filter.senderPhone);
    if (cursor !== null && cursor.at !== undefined) {
      params.push(cursor.at, cursor.id);
      where.push(`(${RECENT}, id) ${cursor.before ? '>' : '<'} ($${params.length - 1}, $${params.length})`);
    }
    params.push(perPage + 1);
    const order = cursor?.before ? 'ASC' : 'DESC';
    const rows = await this.db.query<ConversationRecord & { recent: Date }>(
      `SELECT ${COLUMNS}, ${RECENT} AS recent FROM conversations WHERE ${where.join(' AND ')} ORDER BY ${RECENT} ${order}, id ${order} LIMIT $${params.length}`,
      params,
    );
    const page = cursorPage(rows, cursor, perPage, (r) => ({ at: new Date(r.recent), id: num(r.id) }));
    return { ...page, items: page.items.map(toConversation) };
  }

  async messages(
    conversationId: number,
    cursor: ConversationCursor | null,
    perPage: number,
  ): Promise<CursorPage<ConversationMessage>> {
    const rows =
      cursor === null
        ? await this.db.query<MessageRow>(
            `${MESSAGE_SELECT} WHERE m.conversation_id = $1 ORDER BY m.id DESC LIMIT $2`,
            [conversationId, perPage + 1],
          )
        : cursor.before
          ? await this.db.query<MessageRow>(
              `${MESSAGE_SELECT} WHERE m.conversation_id = $1 AND m.id > $2 ORDER BY m.id ASC LIMIT $3`,
              [conversationId, cursor.id, perPage + 1],
            )
          : await this.db.query<MessageRow>(
              `${MESSAGE_SELECT} WHERE m.conversation_id = $1 AND m.id < $2 ORDER BY m.id DESC LIMIT $3`,
              [conversationId, cursor.id, perPage + 1],
            );
    return cursorPage(rows.map(toConversationMessage), cursor, perPage, (m) => ({ id: m.id }));
  }

  async recentMessages(conversationId: number, limit: number): Promise<ConversationMessage[]> {
    const rows = await this.db.query<MessageRow>(
      `${MESSAGE_SELECT} WHERE m.conversation_id = $1 ORDER BY m.id DESC LIMIT $2`,
      [conversationId, limit],
    );
    return rows.map(toConversationMessage).reverse();
  }
}
