import { CallPermission, Conversation, MessageTemplate, Result, Sender } from '@voiceplane/domain';

/** What a change to a permission stores and answers; `next: null` leaves the row as it was. */
export interface CallPermissionChange<A> {
  readonly next: CallPermission | null;
  readonly answer: A;
}

/**
 * Customers' call permissions, one per (sender, customer phone). A contact never
 * asked has no row: reads answer `noCallPermission`.
 */
export interface CallPermissionRepository {
  find(senderId: number, customerPhone: string): Promise<CallPermission>;
  /**
   * Decides a change with the permission held, so two requests or answers for one contact are
   * judged one after the other (the ask counters must not be passed by a race). Joins the caller's
   * transaction; a refusal stores nothing.
   */
  update<A, E>(
    senderId: number,
    customerPhone: string,
    decide: (current: CallPermission) => Promise<Result<CallPermissionChange<A>, E>>,
  ): Promise<Result<A, E>>;
}

/** The account's chat-app voice webhook: one URL or none per account. */
export interface VoiceWebhookSettingRepository {
  find(userId: number): Promise<string | null>;
  save(userId: number, webhookUrl: string | null): Promise<void>;
}

/**
 * What chat-app voice reads of the chat-app capability's records. The method shapes are those of
 * the chat-app repositories, which satisfy these ports as they are.
 */
export interface VoiceSenderLookup {
  /** Null for a missing id and for another user's sender alike. */
  findOwned(userId: number, id: number): Promise<Sender | null>;
}

export interface VoiceConversationLookup {
  find(senderId: number, customerPhone: string): Promise<Conversation | null>;
}

export interface VoiceTemplateLookup {
  /** The sender's templates with that status, id ascending. */
  list(senderId: number, filter: 'approved'): Promise<MessageTemplate[]>;
}

/** The chat app refused the request template (`send_failed`). */
export type RequestSendFailed = { readonly code: 'send_failed'; readonly reason: string };

/**
 * Sends a call-permission request template into the contact's conversation through the chat-app
 * capability: free, recorded as a `voice_call_request` message, extending the window as any
 * template does. Joins the caller's transaction; a refusal stores nothing.
 */
export interface PermissionRequestSender {
  send(request: {
    readonly sender: Sender;
    readonly customerPhone: string;
    readonly recipientName: string | null;
    readonly template: MessageTemplate;
    readonly requestId: string | null;
    /**
     * The caller's result, made inside the transaction that records the sent template (it may read
     * there): that transaction then concludes the caller's use case (`TransactionOptions.concludes`).
     */
    readonly outcome?: () => Promise<unknown>;
  }): Promise<Result<{ readonly conversationUuid: string }, RequestSendFailed>>;
}
