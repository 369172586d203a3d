import { Conversation, ConversationMessage, newConversation } from '@voiceplane/domain';
import {
  ConversationCursor,
  ConversationFilter,
  ConversationRepository,
  CursorPage,
  cursorPage,
  NewConversationKey,
} from '@voiceplane/application';
import { InMemoryChatappMessageRepository } from './chatapp-messages';
import { copy } from './copy';

/**
 * Conversations in memory (see the chat-app repositories contract). `lock` reads like
 * `SELECT … FOR UPDATE` but holds nothing: the fakes' transactions only run their work.
 */
export class InMemoryConversationRepository implements ConversationRepository {
  private readonly rows = new Map<number, Conversation>();
  private lastId = 0;

  constructor(private readonly messageStore: InMemoryChatappMessageRepository) {
    messageStore.savesConversationsIn(this);
  }

  async find(senderId: number, customerPhone: string): Promise<Conversation | null> {
    const row = [...this.rows.values()].find((c) => c.senderId === senderId && c.customerPhone === customerPhone);
    return row ? copy(row) : null;
  }

  async lockOrCreate(k: NewConversationKey): Promise<Conversation> {
    const existing = await this.find(k.senderId, k.customerPhone);
    if (existing) return existing;
    const created = newConversation(
      { id: ++this.lastId, uuid: k.uuid, userId: k.userId, senderId: k.senderId, customerPhone: k.customerPhone },
      k.now,
    );
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

  /** A web chat's row, as the web-chat fake creates it. */
  insert(fields: Omit<Conversation, 'id'>): Conversation {
    const row = { ...copy(fields), id: ++this.lastId } as Conversation;
    this.rows.set(row.id, row);
    return copy(row);
  }

  /** Every row matching, unlocked (the web-chat fake's lookups). */
  where(test: (c: Conversation) => boolean): Conversation[] {
    return [...this.rows.values()].filter(test).map(copy);
  }

  async save(conversation: Conversation): Promise<void> {
    if (this.rows.has(conversation.id)) this.rows.set(conversation.id, copy(conversation));
  }

  async findOwned(
    userId: number,
    ref: { readonly id: number } | { readonly uuid: string },
  ): Promise<Conversation | null> {
    const row = 'id' in ref ? this.rows.get(ref.id) : [...this.rows.values()].find((c) => c.uuid === ref.uuid);
    return row && row.userId === userId ? copy(row) : null;
  }

  async list(
    userId: number,
    filter: ConversationFilter,
    cursor: ConversationCursor | null,
    perPage: number,
  ): Promise<CursorPage<Conversation>> {
    const recent = (c: Conversation) => (c.lastMessageAt ?? c.createdAt).getTime();
    // Compared as the list orders them: most recent first, then highest id.
    const order = (a: Conversation, b: { at: number; id: number }) => b.at - recent(a) || b.id - a.id;
    const matching = [...this.rows.values()]
      .filter(
        (c) =>
          c.userId === userId &&
          (filter.senderId === undefined || c.senderId === filter.senderId) &&
          (filter.status === undefined || c.status === filter.status) &&
          (filter.aiEnabled === undefined || c.aiEnabled === filter.aiEnabled) &&
          (filter.customerPhone === undefined || c.customerPhone === filter.customerPhone) &&
          (filter.type === undefined || c.type === filter.type) &&
          (filter.assistantId === undefined || c.assistantId === filter.assistantId) &&
          (filter.externalIdentifier === undefined || c.externalIdentifier === filter.externalIdentifier),
      )
      .sort((a, b) => order(a, { at: recent(b), id: b.id }));
    const at = cursor?.at === undefined ? null : { at: cursor.at.getTime(), id: cursor.id };
    const read =
      at === null
        ? matching
        : cursor!.before
          ? matching.filter((c) => order(c, at) < 0).reverse()
          : matching.filter((c) => order(c, at) > 0);
    const page = cursorPage(read.slice(0, perPage + 1), at === null ? null : cursor, perPage, (c) => ({
      at: new Date(recent(c)),
      id: c.id,
    }));
    return { ...page, items: page.items.map(copy) };
  }

  async messages(
    conversationId: number,
    cursor: ConversationCursor | null,
    perPage: number,
  ): Promise<CursorPage<ConversationMessage>> {
    const newest = this.messageStore.conversationMessages(conversationId).reverse();
    const read =
      cursor === null
        ? newest
        : cursor.before
          ? newest.filter((m) => m.id > cursor.id).reverse()
          : newest.filter((m) => m.id < cursor.id);
    return cursorPage(read.slice(0, perPage + 1), cursor, perPage, (m) => ({ id: m.id }));
  }

  async recentMessages(conversationId: number, limit: number): Promise<ConversationMessage[]> {
    const all = this.messageStore.conversationMessages(conversationId);
    return all.slice(Math.max(0, all.length - limit));
  }
}
