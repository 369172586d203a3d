import { Clock } from '../ports';
import { WorkLogger } from '../events';
import { ApplyDeliveryStatus } from './apply-delivery-status';
import { CallPermissionReplies, ChatappMessageRepository, SenderRepository, TemplateRepository } from './ports';
import { ChatappInboundHandler, ChatappInboundItem } from './provider-ports';
import { ReceiveCustomerMessage } from './receive-customer-message';
import type { SenderConnection } from './sender-connection';
import type { ConversationRepository } from '../conversations';

/** The records an inbound item is matched against: its sender, template, message and conversation. */
export interface ChatappInboundRecords {
  readonly senders: SenderRepository;
  readonly templates: TemplateRepository;
  readonly messages: ChatappMessageRepository;
  readonly conversations: ConversationRepository;
}

/** The use cases an inbound item is handed to, by kind. */
export interface ChatappInboundHandlers {
  readonly customerMessages: ReceiveCustomerMessage;
  readonly deliveryStatus: ApplyDeliveryStatus;
  readonly permissionAnswers: CallPermissionReplies;
  readonly connection: SenderConnection;
}

/**
 * What the provider ingress hands over once an item left the inbox. Items naming
 * a sender, template or message voiceplane does not know are acknowledged and dropped.
 */
export class ChatappInbound implements ChatappInboundHandler {
  private readonly senders: SenderRepository;
  private readonly templates: TemplateRepository;
  private readonly messages: ChatappMessageRepository;
  private readonly customerMessages: ReceiveCustomerMessage;
  private readonly deliveryStatus: ApplyDeliveryStatus;
  private readonly conversations: ConversationRepository;
  private readonly permissionAnswers: CallPermissionReplies;
  private readonly connection: SenderConnection;

  constructor(
    records: ChatappInboundRecords,
    handlers: ChatappInboundHandlers,
    private readonly clock: Clock,
    private readonly log: WorkLogger,
  ) {
    ({
      senders: this.senders,
      templates: this.templates,
      messages: this.messages,
      conversations: this.conversations,
    } = records);
    ({
      customerMessages: this.customerMessages,
      deliveryStatus: this.deliveryStatus,
      permissionAnswers: this.permissionAnswers,
      connection: this.connection,
    } = handlers);
  }

  async handle(item: ChatappInboundItem): Promise<void> {
    switch (item.kind) {
      case 'customer_message': {
        const sender = await this.senders.findByProviderRef(item.providerSenderRef);
        if (sender === null) return this.drop(item, 'unknown sender');
        await this.customerMessages.execute({
          sender,
          customerPhone: item.customerPhone,
          customerName: item.customerName,
          text: item.text,
          media:
            item.media === null
              ? null
              : {
                  source: { kind: 'provider', ref: item.media.providerMediaId },
                  mediaType: item.media.mediaType,
                  caption: item.media.caption,
                },
          providerMessageId: item.providerItemId,
        });
        return;
      }
      case 'message_status': {
        const message = await this.messages.findByProviderMessageId(item.providerMessageId);
        if (message === null) return this.drop(item, 'unknown message');
        await this.deliveryStatus.apply(message.id, {
          status: item.status,
          at: item.at,
          errorCode: item.errorCode,
          errorMessage: item.errorMessage,
        });
        return;
      }
      case 'template_status': {
        const template = await this.templates.findByProviderRef(item.providerTemplateRef);
        if (template === null) return this.drop(item, 'unknown template');
        await this.templates.setStatus(
          template.id,
          item.status,
          item.status === 'rejected' ? item.rejectionReason : null,
          this.clock.now(),
        );
        return;
      }
      case 'account_status': {
        const changed = await this.senders.setAccountStatus(item.providerAccountRef, item.status, this.clock.now());
        if (changed.length === 0) return this.drop(item, 'unknown account');
        return;
      }
      case 'sender_reach': {
        const sender = await this.senders.findByProviderRef(item.providerSenderRef);
        if (sender === null) return this.drop(item, 'unknown sender');
        await this.connection.refreshOffline(sender);
        await this.senders.setReach(sender.id, item.reach, this.clock.now());
        return;
      }
      case 'call_permission_reply': {
        const sender = await this.senders.findByProviderRef(item.providerSenderRef);
        if (sender === null) return this.drop(item, 'unknown sender');
        const conversation = await this.conversations.find(sender.id, item.customerPhone);
        // The grant lasts voiceplane's 7 days whatever expiry the provider names.
        const answered = await this.permissionAnswers.answer({
          userId: sender.userId,
          senderId: sender.id,
          customerPhone: item.customerPhone,
          conversationUuid: conversation?.uuid ?? null,
          response: item.response,
          permanent: item.isPermanent,
        });
        if (!answered.ok) this.drop(item, answered.error);
        return;
      }
      case 'call_event':
        // Recorded against chat-app calls by `ChatappCallEventsInbound` (chat-app voice), which the
        // composed app puts in front of this handler; on its own this handler only logs them.
        this.log.info(
          {
            kind: item.kind,
            providerItemId: item.providerItemId,
            event: item.event,
            providerCallId: item.providerCallId,
          },
          'chat-app call event acknowledged',
        );
        return;
    }
  }

  private drop(item: ChatappInboundItem, why: string): void {
    this.log.info({ kind: item.kind, providerItemId: item.providerItemId, why }, 'chat-app item dropped');
  }
}
