import { Conversation, ConversationMessage, LedgerEntry, newConversation, WidgetSettings } from '@voiceplane/domain';
import { NewWebChat, NewWebChatMessage, WebChatRepository, WidgetSettingsRepository } from '@voiceplane/application';
import { InMemoryChatappMessageRepository } from './chatapp-messages';
import { InMemoryConversationRepository } from './conversations';
import { copy } from './copy';

/** Web chats in memory, on the conversation and message fakes (see the web-chat repositories contract). */
export class InMemoryWebChatRepository implements WebChatRepository {
  private readonly visitorHashes = new Map<number, string>();

  constructor(
    private readonly conversations: InMemoryConversationRepository,
    private readonly messages: InMemoryChatappMessageRepository,
    /** The ledger's entries of every account (charges reference messages). */
    private readonly ledger: () => readonly LedgerEntry[],
  ) {}

  async create(chat: NewWebChat): Promise<Conversation> {
    const base = newConversation(
      { id: 0, uuid: chat.uuid, userId: chat.userId, senderId: 0, customerPhone: '' },
      chat.now,
    );
    const { id: _, ...fields } = base;
    const created = this.conversations.insert({
      ...fields,
      type: chat.type,
      senderId: null,
      customerPhone: null,
      assistantId: chat.assistantId,
      variables: copy(chat.variables),
      externalIdentifier: chat.externalIdentifier,
    });
    if (chat.visitorTokenHash) this.visitorHashes.set(created.id, chat.visitorTokenHash);
    return created;
  }

  async lockOrCreateExternal(
    chat: NewWebChat & { readonly externalIdentifier: string },
  ): Promise<{ conversation: Conversation; created: boolean }> {
    const [found] = this.conversations.where(
      (c) =>
        c.type === 'external' && c.assistantId === chat.assistantId && c.externalIdentifier === chat.externalIdentifier,
    );
    return found ? { conversation: found, created: false } : { conversation: await this.create(chat), created: true };
  }

  async addMessage(message: NewWebChatMessage): Promise<ConversationMessage> {
    return this.messages.addWebMessage(message);
  }

  async findVisitorChat(uuid: string, tokenHash: string): Promise<Conversation | null> {
    const [found] = this.conversations.where(
      (c) => c.uuid === uuid && c.type === 'widget' && this.visitorHashes.get(c.id) === tokenHash,
    );
    return found ?? null;
  }

  async widgetSpentSince(assistantId: number, since: Date): Promise<number> {
    const chats = new Set(
      this.conversations.where((c) => c.type === 'widget' && c.assistantId === assistantId).map((c) => c.id),
    );
    const messageIds = new Set([...chats].flatMap((id) => this.messages.conversationMessages(id).map((m) => m.id)));
    const spent = this.ledger()
      .filter(
        (e) =>
          e.reference?.type === 'conversation_message' &&
          messageIds.has(e.reference.id) &&
          e.createdAt.getTime() >= since.getTime(),
      )
      .reduce((sum, e) => sum - Math.round(e.amount * 10_000), 0);
    return spent / 10_000;
  }

  async messagesAfter(conversationId: number, afterId: number, limit: number): Promise<ConversationMessage[]> {
    return this.messages
      .conversationMessages(conversationId)
      .filter((m) => m.id > afterId)
      .slice(0, limit);
  }
}

/** Widget settings in memory, one per assistant. */
export class InMemoryWidgetSettingsRepository implements WidgetSettingsRepository {
  private readonly rows = new Map<number, WidgetSettings>();

  async find(userId: number, assistantId: number): Promise<WidgetSettings | null> {
    const row = this.rows.get(assistantId);
    return row && row.userId === userId ? copy(row) : null;
  }

  async findByKey(widgetKey: string): Promise<WidgetSettings | null> {
    const row = [...this.rows.values()].find((r) => r.widgetKey === widgetKey);
    return row ? copy(row) : null;
  }

  async save(settings: WidgetSettings): Promise<void> {
    this.rows.set(settings.assistantId, copy(settings));
  }
}
