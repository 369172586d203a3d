/** A message the sandbox chat app accepted (listed by its outbox). */
export interface SandboxSentMessage {
  readonly userId: number;
  readonly senderId: number;
  readonly to: string;
  readonly type: 'template' | 'text' | 'media';
  readonly body: string | null;
  readonly mediaUrl: string | null;
  readonly providerMessageId: string;
  readonly at: Date;
}

/** An outbox item: what the sandbox sent, with the message sid and template voiceplane stored for it. */
export interface SandboxOutboxItem {
  readonly messageSid: string | null;
  readonly senderId: number;
  readonly to: string;
  readonly type: string;
  readonly body: string | null;
  readonly mediaUrl: string | null;
  readonly templateId: number | null;
  readonly at: Date;
}

export interface SandboxFaultArming {
  readonly kind: string;
  readonly userId: number;
  /** Only operations on this resource fail; null: any of the user's operations of the kind. */
  readonly targetId: number | null;
  readonly count: number;
}

/**
 * The sandbox chat app's own state, kept in the database so every api instance and worker sees
 * the same sandbox. Writes join the caller's transaction like a provider's records
 * would persist: a message the provider accepted is in its outbox, a fault it used is gone.
 */
export interface SandboxChatappState {
  /**
   * A send reaching the sandbox: a fault of `faultKind` armed for the sender (or for any of the
   * user's operations) claims it and nothing is recorded (`faulted`); otherwise it is recorded.
   */
  accept(message: SandboxSentMessage, faultKind: string): Promise<'sent' | 'faulted'>;
  /** Whether the user's send with this provider message id was recorded. */
  wasSent(userId: number, providerMessageId: string): Promise<boolean>;
  /** Arming the same scope again replaces what was left; answers how many operations will fail. */
  armFault(arming: SandboxFaultArming): Promise<number>;
  /** Newest first. */
  outbox(
    userId: number,
    filter: { readonly senderId?: number; readonly to?: string },
    limit: number,
  ): Promise<SandboxOutboxItem[]>;
}
