import { Conversation, ConversationMessage, FunctionCallRecord, WebChatType, WidgetSettings } from '@voiceplane/domain';

export interface NewWebChat {
  readonly userId: number;
  readonly assistantId: number;
  readonly type: WebChatType;
  readonly uuid: string;
  readonly variables: Readonly<Record<string, string>>;
  /** Only `external` conversations have one. */
  readonly externalIdentifier: string | null;
  /** A widget visitor's token, hashed; null for chats the account's key holds. */
  readonly visitorTokenHash?: string | null;
  readonly now: Date;
}

export interface NewWebChatMessage {
  readonly conversationId: number;
  /** `customer`: the visitor or customer; `ai`: the assistant; `api`: a human who took over. */
  readonly source: 'customer' | 'ai' | 'api';
  readonly body: string;
  readonly functionCalls: readonly FunctionCallRecord[] | null;
  readonly now: Date;
}

/** Writes of web chats; reads and saves go through the conversation repository. */
export interface WebChatRepository {
  create(chat: NewWebChat): Promise<Conversation>;
  /**
   * Inside a transaction: the external conversation of (assistant, identifier), locked, created
   * first when there is none (`created` true then).
   */
  lockOrCreateExternal(
    chat: NewWebChat & { readonly externalIdentifier: string },
  ): Promise<{ readonly conversation: Conversation; readonly created: boolean }>;
  addMessage(message: NewWebChatMessage): Promise<ConversationMessage>;
  /** The widget conversation whose visitor token hashes to `tokenHash`; null for any other pair. */
  findVisitorChat(uuid: string, tokenHash: string): Promise<Conversation | null>;
  /** What the assistant's widget chats were charged since `since`, refunds deducted (USD). */
  widgetSpentSince(assistantId: number, since: Date): Promise<number>;
  /** Messages of a conversation after `afterId`, oldest first (a live view catching up). */
  messagesAfter(conversationId: number, afterId: number, limit: number): Promise<ConversationMessage[]>;
}

export interface WidgetSettingsRepository {
  find(userId: number, assistantId: number): Promise<WidgetSettings | null>;
  findByKey(widgetKey: string): Promise<WidgetSettings | null>;
  save(settings: WidgetSettings, now: Date): Promise<void>;
}
