import { ChatappMessage, Conversation, ConversationMessage, err, ok, Result } from '@voiceplane/domain';
import {
  ChatappMessageRepository,
  ConversationRepository,
  DeliveryStateChange,
  NewChatappMessage,
  NewUnsentMessage,
  NewWebChatMessage,
  StoredChatappMessage,
} from '@voiceplane/application';
import { copy } from './copy';
import { RowLocks } from './row-locks';

type MessageRow = Omit<ConversationMessage, 'chatappMessageId' | 'messageSid'>;

/** Conversation messages and their chat-app delivery records in memory (see the chat-app repositories contract). */
export class InMemoryChatappMessageRepository implements ChatappMessageRepository {
  private readonly messages = new Map<number, MessageRow>();
  private readonly chatapp = new Map<number, ChatappMessage & { fromAllowance: boolean }>();
  private readonly locks = new RowLocks<number>();
  private lastMessageId = 0;
  private lastChatappId = 0;
  private conversations: Pick<ConversationRepository, 'save'> | null = null;

  /** The conversations `recordSaving` saves to; the in-memory conversation repository registers itself. */
  savesConversationsIn(conversations: Pick<ConversationRepository, 'save'>): void {
    this.conversations = conversations;
  }

  async recordSaving(conversation: Conversation, m: NewChatappMessage): Promise<StoredChatappMessage> {
    if (!this.conversations) throw new Error('no conversation repository was given to the message store');
    await this.conversations.save(conversation);
    return this.record(m);
  }

  async record(m: NewChatappMessage): Promise<StoredChatappMessage> {
    const message: MessageRow = {
      id: ++this.lastMessageId,
      conversationId: m.conversationId,
      direction: m.direction,
      source: m.source,
      type: m.type,
      body: m.body,
      mediaUrl: m.media?.url ?? null,
      mediaType: m.media?.mediaType ?? null,
      filename: m.media?.filename ?? null,
      templateId: m.templateId,
      status: null,
      errorCode: null,
      createdAt: new Date(m.now),
    };
    this.messages.set(message.id, message);
    const chatapp = {
      id: ++this.lastChatappId,
      userId: m.userId,
      messageId: message.id,
      senderId: m.senderId,
      conversationId: m.conversationId,
      direction: m.direction,
      from: m.from,
      to: m.to,
      messageSid: m.messageSid,
      providerMessageId: m.providerMessageId,
      status: m.status,
      errorCode: null,
      errorMessage: null,
      cost: m.cost,
      statusHistory: m.status === 'received' ? [] : [{ status: m.status, at: new Date(m.now) }],
      createdAt: new Date(m.now),
      updatedAt: new Date(m.now),
      fromAllowance: m.fromAllowance,
    } as ChatappMessage & { fromAllowance: boolean };
    this.chatapp.set(chatapp.id, chatapp);
    return { messageId: message.id, chatapp: strip(chatapp) };
  }

  /** What the in-memory media repository changes on a message (its copy kept, or why not). */
  setMedia(messageId: number, change: { mediaUrl?: string | null; mediaError: string | null }): boolean {
    const row = this.messages.get(messageId);
    if (!row) return false;
    this.messages.set(messageId, {
      ...row,
      ...(change.mediaUrl === undefined ? {} : { mediaUrl: change.mediaUrl }),
      mediaError: change.mediaError,
    });
    return true;
  }

  /** A web chat's message (no delivery record), as the web-chat fake stores it. */
  addWebMessage(m: NewWebChatMessage): ConversationMessage {
    const row: MessageRow = {
      id: ++this.lastMessageId,
      conversationId: m.conversationId,
      direction: m.source === 'customer' ? 'inbound' : 'outbound',
      source: m.source,
      type: 'text',
      body: m.body,
      mediaUrl: null,
      mediaType: null,
      filename: null,
      templateId: null,
      status: null,
      errorCode: null,
      ...(m.functionCalls === null ? {} : { functionCalls: copy(m.functionCalls) }),
      createdAt: new Date(m.now),
    };
    this.messages.set(row.id, row);
    return copy({ ...row, chatappMessageId: null, messageSid: null });
  }

  async recordUnsent(m: NewUnsentMessage): Promise<number> {
    const id = ++this.lastMessageId;
    this.messages.set(id, {
      id,
      conversationId: m.conversationId,
      direction: 'outbound',
      source: m.source,
      type: 'text',
      body: m.body,
      mediaUrl: null,
      mediaType: null,
      filename: null,
      templateId: null,
      status: 'failed',
      errorCode: m.errorCode,
      createdAt: new Date(m.now),
    });
    return id;
  }

  async findOwnedBySid(userId: number, messageSid: string): Promise<ChatappMessage | null> {
    const row = [...this.chatapp.values()].find((c) => c.messageSid === messageSid && c.userId === userId);
    return row ? strip(row) : null;
  }

  async findByProviderMessageId(providerMessageId: string): Promise<ChatappMessage | null> {
    const row = [...this.chatapp.values()].find(
      (c) => c.providerMessageId === providerMessageId && c.direction === 'outbound',
    );
    return row ? strip(row) : null;
  }

  updateDelivery<A, E>(
    id: number,
    decide: (message: ChatappMessage) => Promise<Result<DeliveryStateChange<A>, E>>,
  ): Promise<Result<A, E | 'not_found'>> {
    return this.locks.hold(id, async () => {
      const row = this.chatapp.get(id);
      if (!row) return err('not_found' as const);
      const decided = await decide(strip(row));
      if (!decided.ok) return decided;
      const { next, at } = decided.value;
      this.chatapp.set(id, { ...row, ...copy(next), updatedAt: new Date(at) });
      return ok(decided.value.answer);
    });
  }

  async allowanceUsed(userId: number, since: Date): Promise<number> {
    return [...this.chatapp.values()].filter(
      (c) => c.userId === userId && c.fromAllowance && c.createdAt.getTime() >= since.getTime(),
    ).length;
  }

  /** A conversation's messages, id ascending, with their delivery records' status (what the conversation fake reads). */
  conversationMessages(conversationId: number): ConversationMessage[] {
    const byMessage = new Map([...this.chatapp.values()].map((c) => [c.messageId, c]));
    return [...this.messages.values()]
      .filter((m) => m.conversationId === conversationId)
      .sort((a, b) => a.id - b.id)
      .map((m) => {
        const c = byMessage.get(m.id);
        return copy({
          ...m,
          chatappMessageId: c?.id ?? null,
          messageSid: c?.messageSid ?? null,
          status: c?.status ?? m.status,
          errorCode: c?.errorCode ?? m.errorCode,
        });
      });
  }
}

function strip(row: ChatappMessage & { fromAllowance: boolean }): ChatappMessage {
  const { fromAllowance: _, ...message } = row;
  return copy(message);
}
