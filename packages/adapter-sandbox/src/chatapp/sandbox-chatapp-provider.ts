import {
  ChatappProvider,
  ChatappProviderRefusal,
  FreeformContent,
  Ids,
  ProviderAcceptance,
  ProviderMediaDownload,
  ProviderSender,
  RegisteredSender,
  SandboxChatappState,
  SubmittedTemplate,
  TemplateMessage,
  TemplateSubmission,
} from '@voiceplane/application';
import { TemplateStatus } from '@voiceplane/domain';

/** Sandbox fault kind: the next sends fail with `SEND_FAILED`. */
export const CHATAPP_SEND_FAULT = 'chatapp_send';
export const SANDBOX_SEND_REFUSAL = 'sandbox fault injected (chatapp_send)';

/**
 * The sandbox's message id for a send given voiceplane's message sid as its reference, so the
 * sandbox can later say whether that send went out (a real provider keeps such a reference).
 */
function idOfReference(reference: string): string | null {
  const hex = /^SM([0-9a-f]{32})$/.exec(reference)?.[1];
  return hex === undefined ? null : `sbx_${hex.slice(0, 24)}`;
}

/**
 * The chat app simulated on voiceplane's own database: senders are online at
 * once, templates get the configured status (approved by default), sends succeed as `queued`
 * unless a sandbox fault is armed for the user (or aimed at the sender), and whatever it sent is
 * listed by the sandbox `outbox`. Its state lives in PostgreSQL, so several instances share one sandbox.
 */
export class SandboxChatappProvider implements ChatappProvider {
  readonly name = 'sandbox' as const;

  constructor(
    private readonly state: SandboxChatappState,
    private readonly ids: Ids,
    private readonly now: () => Date,
    private readonly templateStatus: TemplateStatus = 'approved',
  ) {}

  async registerSender(): Promise<RegisteredSender> {
    // Sandbox numbers are healthy at once with the usual limit of a new number.
    return {
      status: 'online',
      providerSenderRef: null,
      providerAccountRef: null,
      qualityRating: 'GREEN',
      messagingLimit: 1000,
    };
  }

  /** The sandbox `inbound-message` gives a URL, never a media id: the sandbox chat app keeps no files. */
  async downloadMedia(): Promise<ProviderMediaDownload> {
    throw new ChatappProviderRefusal('The sandbox chat app keeps no media.');
  }

  async submitTemplate(_sender: ProviderSender, _template: TemplateSubmission): Promise<SubmittedTemplate> {
    return { status: this.templateStatus, providerTemplateRef: null };
  }

  sendTemplate(
    sender: ProviderSender,
    to: string,
    template: TemplateMessage,
    reference?: string,
  ): Promise<ProviderAcceptance> {
    return this.accept(sender, to, { type: 'template', body: template.renderedText, mediaUrl: null }, reference);
  }

  sendFreeform(
    sender: ProviderSender,
    to: string,
    content: FreeformContent,
    reference?: string,
  ): Promise<ProviderAcceptance> {
    return this.accept(
      sender,
      to,
      content.kind === 'text'
        ? { type: 'text', body: content.text, mediaUrl: null }
        : { type: 'media', body: content.caption, mediaUrl: content.url },
      reference,
    );
  }

  /** The outbox is the sandbox's memory of what it sent. */
  async findSend(sender: ProviderSender, _to: string, reference: string): Promise<ProviderAcceptance | null> {
    const providerMessageId = idOfReference(reference);
    if (providerMessageId === null) return null;
    return (await this.state.wasSent(sender.userId, providerMessageId))
      ? { providerMessageId, status: 'queued' }
      : null;
  }

  private async accept(
    sender: ProviderSender,
    to: string,
    m: { type: 'template' | 'text' | 'media'; body: string | null; mediaUrl: string | null },
    reference: string | undefined,
  ): Promise<ProviderAcceptance> {
    const providerMessageId = (reference === undefined ? null : idOfReference(reference)) ?? this.ids.token('sbx_', 24);
    const outcome = await this.state.accept(
      { userId: sender.userId, senderId: sender.senderId, to, ...m, providerMessageId, at: this.now() },
      CHATAPP_SEND_FAULT,
    );
    if (outcome === 'faulted') throw new ChatappProviderRefusal(SANDBOX_SEND_REFUSAL);
    return { providerMessageId, status: 'queued' };
  }
}
