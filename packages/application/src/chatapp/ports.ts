import {
  CallPermission,
  CallPermissionAnswerRefusal,
  ChatappMessage,
  Conversation,
  MediaType,
  MessageDeliveryState,
  MessageTemplate,
  QualityRating,
  Result,
  Sender,
  SenderStatus,
  TemplateStatus,
} from '@voiceplane/domain';

/** A sender as registered: the record's fields plus what only the provider side reads. */
export interface NewSender extends Omit<Sender, 'id' | 'createdAt' | 'updatedAt'> {
  readonly providerSenderRef: string | null;
  /** The provider's business account the number belongs to (WhatsApp: the WABA id), named by account-wide events. */
  readonly providerAccountRef: string | null;
  /** The sealed `provider_config` (write-only: never read back through the API). */
  readonly sealedCredentials: string | null;
  readonly now: Date;
}

/** Fields of `PUT senders/{id}`; absent keys stay. */
export interface SenderChanges {
  readonly displayName?: string;
  readonly assistantId?: number | null;
  readonly callingEnabled?: boolean;
  readonly statusWebhookUrl?: string | null;
}

export type SenderListFilter = SenderStatus | 'all';

/** A number's quality and daily messaging limit as the provider reports them; null = not reported. */
export interface SenderReach {
  readonly qualityRating: QualityRating | null;
  /** `{ value: null }` is unlimited. */
  readonly messagingLimit: { readonly value: number | null } | null;
}

export interface SenderRepository {
  /** Null when the phone number is registered already, by any account. */
  create(sender: NewSender): Promise<Sender | null>;
  /** Null for a missing id and for another user's sender alike. */
  findOwned(userId: number, id: number): Promise<Sender | null>;
  /** Id ascending. */
  list(userId: number, filter: SenderListFilter): Promise<Sender[]>;
  update(userId: number, id: number, changes: SenderChanges, now: Date): Promise<Sender | null>;
  /** The provider's report about a number, or the sandbox's sender-status route. */
  setStatus(id: number, status: SenderStatus, qualityRating: QualityRating | null, now: Date): Promise<Sender | null>;
  /** An account-wide provider event: every sender of that business account takes `status`; the changed senders. */
  setAccountStatus(providerAccountRef: string, status: SenderStatus, now: Date): Promise<Sender[]>;
  /** What the provider reports about a number's reach; a null field stays as it is. */
  setReach(id: number, reach: SenderReach, now: Date): Promise<Sender | null>;
  /** The sender a provider item names: by the provider's ref, else by phone number. */
  findByProviderRef(ref: string): Promise<Sender | null>;
  /** The sealed `provider_config`; null when none was given. */
  sealedCredentials(id: number): Promise<string | null>;
  /** Replaces what is known of the sender's calling line on the chat app (the sender's `updated_at` stays). */
  setCallingLine(id: number, line: SenderCallingLine): Promise<void>;
  /** Null for a missing sender; a sender never set up has every field null. */
  callingLine(id: number): Promise<SenderCallingLine | null>;
}

/** The line a sender's chat-app calls leave through (a real chat app), or why there is none. */
export interface SenderCallingLine {
  readonly trunkId: string | null;
  /** The chat app's SIP password for the number, sealed. */
  readonly sealedSipPassword: string | null;
  readonly error: string | null;
}

export interface NewTemplate extends Omit<MessageTemplate, 'id' | 'rejectionReason' | 'createdAt' | 'updatedAt'> {
  readonly providerTemplateRef: string | null;
  readonly now: Date;
}

export type TemplateListFilter = TemplateStatus | 'all';

export interface TemplateRepository {
  /** Null when the sender has a template of this name and language already. */
  create(template: NewTemplate): Promise<MessageTemplate | null>;
  /** Null unless the template belongs to this sender. */
  findForSender(senderId: number, id: number): Promise<MessageTemplate | null>;
  /** A template of any of the user's senders (sandbox template status). */
  findOwned(userId: number, id: number): Promise<MessageTemplate | null>;
  /** Id ascending. */
  list(senderId: number, filter: TemplateListFilter): Promise<MessageTemplate[]>;
  setStatus(
    id: number,
    status: TemplateStatus,
    rejectionReason: string | null,
    now: Date,
  ): Promise<MessageTemplate | null>;
  findByProviderRef(ref: string): Promise<MessageTemplate | null>;
}

/** A message and its chat-app delivery record, written together. */
export interface NewChatappMessage {
  readonly userId: number;
  readonly conversationId: number;
  readonly senderId: number;
  readonly direction: 'inbound' | 'outbound';
  readonly source: 'customer' | 'ai' | 'api' | 'automation';
  readonly type: 'text' | 'media' | 'template' | 'voice_call_request';
  readonly body: string | null;
  /** Inbound media from a provider arrives as the provider's media id, without a URL. */
  readonly media: {
    readonly url: string | null;
    readonly mediaType: MediaType;
    readonly filename: string | null;
  } | null;
  readonly templateId: number | null;
  readonly from: string;
  readonly to: string;
  readonly messageSid: string;
  readonly providerMessageId: string | null;
  readonly status: ChatappMessage['status'];
  readonly cost: number;
  /** Counted against the plan's monthly template allowance. */
  readonly fromAllowance: boolean;
  readonly now: Date;
}

/** A message that was stored but never sent (an AI reply the balance could not pay for). */
export interface NewUnsentMessage {
  readonly userId: number;
  readonly conversationId: number;
  readonly source: 'ai';
  readonly body: string;
  readonly errorCode: string;
  readonly now: Date;
}

export interface StoredChatappMessage {
  readonly messageId: number;
  readonly chatapp: ChatappMessage;
}

/** What a status change decided about a locked chat-app message. */
export interface DeliveryStateChange<A> {
  readonly next: MessageDeliveryState;
  readonly at: Date;
  readonly answer: A;
}

export interface ChatappMessageRepository {
  record(message: NewChatappMessage): Promise<StoredChatappMessage>;
  /**
   * `ConversationRepository.save(conversation)` and `record(message)` in one round trip, for a send
   * that holds the user's balance lock and the conversation's lock.
   */
  recordSaving(conversation: Conversation, message: NewChatappMessage): Promise<StoredChatappMessage>;
  recordUnsent(message: NewUnsentMessage): Promise<number>;
  findOwnedBySid(userId: number, messageSid: string): Promise<ChatappMessage | null>;
  findByProviderMessageId(providerMessageId: string): Promise<ChatappMessage | null>;
  /**
   * In one transaction (the caller's, when there is one) locks the chat-app message, hands it to
   * `decide` and stores the state it returned. What `decide` writes elsewhere commits with it.
   */
  updateDelivery<A, E>(
    id: number,
    decide: (message: ChatappMessage) => Promise<Result<DeliveryStateChange<A>, E>>,
  ): Promise<Result<A, E | 'not_found'>>;
  /** Template sends of the user since `since` that the plan's allowance paid for. */
  allowanceUsed(userId: number, since: Date): Promise<number>;
}

/** A customer's answer to a call-permission request, as the chat app received it. */
export interface CallPermissionReply {
  readonly userId: number;
  readonly senderId: number;
  readonly customerPhone: string;
  /** The contact's conversation UUID, for the event; null when none exists. */
  readonly conversationUuid: string | null;
  readonly response: 'accept' | 'reject';
  /** Only for `accept`: a grant without expiry. */
  readonly permanent: boolean;
}

/**
 * Who takes that answer: the call-permission feature. It builds on the chat app (it sends the
 * requests through it), so it is handed in here rather than imported.
 */
export interface CallPermissionReplies {
  answer(reply: CallPermissionReply): Promise<Result<CallPermission, CallPermissionAnswerRefusal>>;
}
