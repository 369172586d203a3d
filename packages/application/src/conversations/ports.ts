import { Conversation, ConversationMessage, ConversationStatus, ConversationType, Sender } from '@voiceplane/domain';

/** Where a cursor page starts: after this item in the list's order, or (`before`) the page that ends just before it. */
export interface ConversationCursor {
  /** `last_message_at` of the item (conversations list only). */
  readonly at?: Date;
  readonly id: number;
  /** A `prev_cursor`: the items that come before this one in the list's order. */
  readonly before?: boolean;
}

export interface CursorPage<T> {
  readonly items: T[];
  /** The position after the last item; null on the last page. */
  readonly next: ConversationCursor | null;
  /** The position before the first item; null on the first page. */
  readonly prev: ConversationCursor | null;
}

export interface ConversationFilter {
  readonly senderId?: number;
  readonly status?: ConversationStatus;
  readonly aiEnabled?: boolean;
  readonly customerPhone?: string;
  readonly type?: ConversationType;
  readonly assistantId?: number;
  /** The phone number of the chat-app sender a conversation is held on. */
  readonly senderPhone?: string;
  readonly externalIdentifier?: string;
}

/** A conversation as a request names it: by integer id or by UUID. */
export type ConversationRef = { readonly id: number } | { readonly uuid: string };

export interface NewConversationKey {
  readonly userId: number;
  readonly senderId: number;
  readonly customerPhone: string;
  /** Used only when the conversation is created. */
  readonly uuid: string;
  readonly now: Date;
}

/** The chat-app senders a conversation is held on, as far as conversations read them. */
export interface ConversationSenders {
  findOwned(userId: number, id: number): Promise<Pick<Sender, 'phoneNumber' | 'displayName'> | null>;
}

export interface ConversationRepository {
  /** Unlocked read of the (sender, customer) conversation. */
  find(senderId: number, customerPhone: string): Promise<Conversation | null>;
  /** Inside a transaction: the conversation locked until it ends, created first when there is none. */
  lockOrCreate(key: NewConversationKey): Promise<Conversation>;
  /** Inside a transaction: the existing conversation locked until it ends. */
  lock(senderId: number, customerPhone: string): Promise<Conversation | null>;
  lockById(id: number): Promise<Conversation | null>;
  /** Writes every field the domain changes. */
  save(conversation: Conversation): Promise<void>;
  /** By integer id or UUID; null for another user's conversation. */
  findOwned(userId: number, ref: ConversationRef): Promise<Conversation | null>;
  /**
   * Ordered by `last_message_at` descending, then id descending. Adapters read `perPage + 1`
   * items from the cursor in its direction and hand them to `cursorPage`.
   */
  list(
    userId: number,
    filter: ConversationFilter,
    cursor: ConversationCursor | null,
    perPage: number,
  ): Promise<CursorPage<Conversation>>;
  /** Newest first; paged like `list`. */
  messages(
    conversationId: number,
    cursor: ConversationCursor | null,
    perPage: number,
  ): Promise<CursorPage<ConversationMessage>>;
  /** The latest `limit` messages, oldest first (AI history, the ended webhook's transcript). */
  recentMessages(conversationId: number, limit: number): Promise<ConversationMessage[]>;
}
