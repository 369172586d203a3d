import { Conversation, ConversationMessage, newConversation } from '@voiceplane/domain';
import { ConversationCursor, ConversationFilter, ConversationRepository, CursorPage, NewConversationKey } from '@voiceplane/application';
import { InMemoryChatappMessageRepository } from './chatapp-messages';
import { copy } from './copy';

/**
 * Conversations in memory (see the chat-app repositories contract). `lock` reads like
 * `SELECT … FOR UPDATE` but holds nothing: the fakes' transactions only run their work.
 */
export class InMemoryConversationRepository implements ConversationRepository {
  private readonly rows = new Map<number, Conversation>();
  private lastId = 0;

  constructor(private readonly messageStore: InMemoryChatappMessageRepository) {}

  async find(senderId: number, customerPhone: string): Promise<Conversation | null> {
    const row = [...this.rows.values()].find((c) => c.senderId === senderId && c.customerPhone === customerPhone);
    return row ? copy(row) : null;
  }

  async lockOrCreate(k: NewConversationKey): Promise<Conversation> {
    const existing = await this.find(k.senderId, k.customerPhone);
    if (existing) return existing;
    const created = newConversation({ id: ++this.lastId, uuid: k.uuid, userId: k.userId, senderId: k.senderId, customerPhone: k.customerPhone }, k.now);
    this.rows.set(created.id, created);
    return copy(created);
  }

  lock(senderId: number, customerPhone: string): Promise<Conversation | null> {
    return this.find(senderId, customerPhone);
  }

  async lockById(id: number): Promise<Conversation | null> {
    const row = this.rows.get(id);
    return row ? copy(row) : null;
  }

  async save(conversation: Conversation): Promise<void> {
    if (this.rows.has(conversation.id)) this.rows.set(conversation.id, copy(conversation));
  }

  async findOwned(userId: number, ref: { readonly id: number } | { readonly uuid: string }): Promise<Conversation | null> {
    const row = 'id' in ref ? this.rows.get(ref.id) : [...this.rows.values()].find((c) => c.uuid === ref.uuid);
    return row && row.userId === userId ? copy(row) : null;
  }

  async list(userId: number, filter: ConversationFilter, after: ConversationCursor | null, perPage: number): Promise<CursorPage<Conversation>> {
    const recent = (c: Conversation) => (c.lastMessageAt ?? c.createdAt).getTime();
    const ordered = [...this.rows.values()]
      .filter((c) => c.userId === userId && (filter.senderId === undefined || c.senderId === filter.senderId)
        && (filter.status === undefined || c.status === filter.status) && (filter.aiEnabled === undefined || c.aiEnabled === filter.aiEnabled)
        && (filter.customerPhone === undefined || c.customerPhone === filter.customerPhone))
      .sort((a, b) => recent(b) - recent(a) || b.id - a.id)
      .filter((c) => after === null || after.at === undefined || recent(c) < after.at.getTime() || (recent(c) === after.at.getTime() && c.id < after.id));
    const items = ordered.slice(0, perPage);
    const last = items[items.length - 1];
    return { items: items.map(copy), next: ordered.length > perPage ? { at: new Date(recent(last)), id: last.id } : null };
  }

  async messages(conversationId: number, after: ConversationCursor | null, perPage: number): Promise<CursorPage<ConversationMessage>> {
    const newest = this.messageStore.conversationMessages(conversationId).reverse().filter((m) => after === null || m.id < after.id);
    const items = newest.slice(0, perPage);
    return { items, next: newest.length > perPage ? { id: items[items.length - 1].id } : null };
  }

  async recentMessages(conversationId: number, limit: number): Promise<ConversationMessage[]> {
    const all = this.messageStore.conversationMessages(conversationId);
    return all.slice(Math.max(0, all.length - limit));
  }
}
