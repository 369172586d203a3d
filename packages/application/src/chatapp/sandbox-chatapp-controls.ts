import {
  ChatappMessage,
  err,
  expireWindow,
  MessageDeliveryUpdate,
  MessageTemplate,
  ok,
  QualityRating,
  Result,
  Sender,
  SenderStatus,
  SessionStatus,
  sessionStatus,
  TemplateStatus,
} from '@voiceplane/domain';
import { Clock } from '../ports';
import { UnitOfWork } from '../ports';
import { ConversationRepository } from '../conversations';
import { ApplyDeliveryStatus, DeliveryStatusRefusal } from './apply-delivery-status';
import { ChatappMessageRepository, SenderRepository, TemplateRepository } from './ports';
import { CustomerMessage, CustomerMessageReceived, ReceiveCustomerMessage } from './receive-customer-message';
import { SandboxChatappState, SandboxOutboxItem } from './sandbox-ports';

/** The records the sandbox's controls act on. */
export interface SandboxChatappRecords {
  readonly senders: SenderRepository;
  readonly templates: TemplateRepository;
  readonly conversations: ConversationRepository;
  readonly messages: ChatappMessageRepository;
}

/** What the sandbox's customer sends, to one of the caller's senders. */
export type SandboxCustomerMessage = Omit<CustomerMessage, 'sender'> & { readonly senderId: number };

/**
 * The sandbox chat app's controls: what a provider would report, played by the caller
 * on its own senders, templates and messages only: anything else is `not_found`, before the
 * request's body is read. Exists only while the chat-app provider is the sandbox.
 */
export class SandboxChatappControls {
  constructor(
    private readonly records: SandboxChatappRecords,
    private readonly uow: UnitOfWork,
    private readonly receive: ReceiveCustomerMessage,
    private readonly deliveryStatus: ApplyDeliveryStatus,
    private readonly state: SandboxChatappState,
    private readonly clock: Clock,
  ) {}

  /** An inbound message, received as the provider ingress would hand it over, AI reply included. */
  async inbound(
    userId: number,
    message: SandboxCustomerMessage,
  ): Promise<Result<CustomerMessageReceived, 'not_found'>> {
    const { senderId, ...rest } = message;
    const sender = await this.records.senders.findOwned(userId, senderId);
    if (sender === null) return err('not_found');
    return ok(await this.receive.execute({ ...rest, sender }));
  }

  /** A sender's status, as the provider would report it. */
  async senderStatus(
    userId: number,
    senderId: number,
    statusOf: () => { readonly status: SenderStatus; readonly qualityRating: QualityRating | null },
  ): Promise<Result<Sender, 'not_found'>> {
    const sender = await this.records.senders.findOwned(userId, senderId);
    if (sender === null) return err('not_found');
    const { status, qualityRating } = statusOf();
    const updated = await this.records.senders.setStatus(sender.id, status, qualityRating, this.clock.now());
    return updated === null ? err('not_found') : ok(updated);
  }

  /** A template status: a template of any of the caller's senders. */
  async templateStatus(
    userId: number,
    templateId: number,
    statusOf: () => { readonly status: TemplateStatus; readonly rejectionReason: string | null },
  ): Promise<Result<MessageTemplate, 'not_found'>> {
    const template = await this.records.templates.findOwned(userId, templateId);
    if (template === null) return err('not_found');
    const { status, rejectionReason } = statusOf();
    const updated = await this.records.templates.setStatus(template.id, status, rejectionReason, this.clock.now());
    return updated === null ? err('not_found') : ok(updated);
  }

  /** A delivery status of one of the caller's messages, applied as the provider's would be (now). */
  async messageStatus(
    userId: number,
    messageSid: string,
    updateOf: () => Omit<MessageDeliveryUpdate, 'at'>,
  ): Promise<Result<ChatappMessage, DeliveryStatusRefusal>> {
    const message = await this.records.messages.findOwnedBySid(userId, messageSid);
    if (message === null) return err('not_found');
    return this.deliveryStatus.apply(message.id, { ...updateOf(), at: this.clock.now() });
  }

  /** The 24-hour window with the customer closed now, under the conversation's lock. */
  async expireWindow(
    userId: number,
    senderId: number,
    customerPhone: string,
  ): Promise<Result<SessionStatus, 'not_found'>> {
    const sender = await this.records.senders.findOwned(userId, senderId);
    if (sender === null) return err('not_found');
    const expired = await this.uow.transaction(async () => {
      const conversation = await this.records.conversations.lock(sender.id, customerPhone);
      if (conversation === null) return null;
      const now = this.clock.now();
      const next = { ...conversation, window: expireWindow(conversation.window, now), updatedAt: now };
      await this.records.conversations.save(next);
      return sessionStatus(next.window, now);
    });
    return expired === null ? err('not_found') : ok(expired);
  }

  /** What the sandbox sent, newest first: another account's sender is not found, not an empty list. */
  async outbox(
    userId: number,
    filter: { readonly senderId?: number; readonly to?: string },
    limit: number,
  ): Promise<Result<SandboxOutboxItem[], 'not_found'>> {
    if (filter.senderId !== undefined && (await this.records.senders.findOwned(userId, filter.senderId)) === null)
      return err('not_found');
    return ok(await this.state.outbox(userId, filter, limit));
  }
}
