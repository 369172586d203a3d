import { Conversation, ConversationMessage } from '@voiceplane/domain';
import { NewWebChat, NewWebChatMessage, WebChatRepository } from '@voiceplane/application';
import { Database } from '../../database';
import type { ConversationRecord } from '../../records';
import { CONVERSATION_COLUMNS, toConversation } from '../chatapp/conversation-repository';
import { MESSAGE_SELECT, MessageRow, toConversationMessage } from '../chatapp/message-rows';

const INSERT = `INSERT INTO conversations (uuid, user_id, assistant_id, type, variables, external_identifier, visitor_token_hash, status, ai_enabled, message_count,
    ended_count, created_at, updated_at)
  VALUES ($1, $2, $3, $4, $5, $6, $8, 'open', true, 0, 0, $7, $7)`;

const chatParams = (c: NewWebChat): unknown[] => [
  c.uuid,
  c.userId,
  c.assistantId,
  c.type,
  JSON.stringify(c.variables),
  c.externalIdentifier,
  c.now,
  c.visitorTokenHash ?? null,
];

export class TypeormWebChatRepository implements WebChatRepository {
  constructor(private readonly db: Database) {}

  async create(chat: NewWebChat): Promise<Conversation> {
    const row = await this.db.one<ConversationRecord>(`${INSERT} RETURNING ${CONVERSATION_COLUMNS}`, chatParams(chat));
    return toConversation(row!);
  }

  async lockOrCreateExternal(
    chat: NewWebChat & { readonly externalIdentifier: string },
  ): Promise<{ conversation: Conversation; created: boolean }> {
    const inserted = await this.db.one<ConversationRecord>(
      `${INSERT} ON CONFLICT (assistant_id, external_identifier) WHERE type = 'external' DO NOTHING RETURNING ${CONVERSATION_COLUMNS}`,
      chatParams(chat),
    );
    if (inserted !== null) return { conversation: toConversation(inserted), created: true };
    const row = await this.db.one<ConversationRecord>(
      `SELECT ${CONVERSATION_COLUMNS} FROM conversations WHERE type = 'external' AND assistant_id = $1 AND external_identifier = $2 FOR NO KEY UPDATE`,
      [chat.assistantId, chat.externalIdentifier],
    );
    return { conversation: toConversation(row!), created: false };
  }

  async addMessage(m: NewWebChatMessage): Promise<ConversationMessage> {
    const direction = m.source === 'customer' ? 'inbound' : 'outbound';
    const row = await this.db.one<MessageRow>(
      `WITH m AS (INSERT INTO conversation_messages (conversation_id, direction, source, type, body, function_calls, created_at)
         VALUES ($1, $2, $3, 'text', $4, $5, $6) RETURNING *)
       SELECT m.*, NULL AS chatapp_message_id, NULL AS message_sid FROM m`,
      [
        m.conversationId,
        direction,
        m.source,
        m.body,
        m.functionCalls === null ? null : JSON.stringify(m.functionCalls),
        m.now,
      ],
    );
    return toConversationMessage(row!);
  }

  async findVisitorChat(uuid: string, tokenHash: string): Promise<Conversation | null> {
    const row = await this.db.one<ConversationRecord>(
      `SELECT ${CONVERSATION_COLUMNS} FROM conversations WHERE uuid = $1 AND type = 'widget' AND visitor_token_hash = $2`,
      [uuid, tokenHash],
    );
    return row === null ? null : toConversation(row);
  }

  async widgetSpentSince(assistantId: number, since: Date): Promise<number> {
    const row = await this.db.one<{ spent: string | null }>(
      `SELECT -SUM(l.amount) AS spent FROM ledger_entries l
         JOIN conversation_messages m ON l.reference_type = 'conversation_message' AND l.reference_id = m.id
         JOIN conversations c ON c.id = m.conversation_id
        WHERE c.assistant_id = $1 AND c.type = 'widget' AND l.created_at >= $2`,
      [assistantId, since],
    );
    return Number(row?.spent ?? 0);
  }

  async messagesAfter(conversationId: number, afterId: number, limit: number): Promise<ConversationMessage[]> {
    const rows = await this.db.query<MessageRow>(
      `${MESSAGE_SELECT} WHERE m.conversation_id = $1 AND m.id > $2 ORDER BY m.id ASC LIMIT $3`,
      [conversationId, afterId, limit],
    );
    return rows.map(toConversationMessage);
  }
}
