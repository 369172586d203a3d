import { applyMessageDeliveryUpdate, ChatappMessage, err, MessageDeliveryUpdate, ok, Result } from '@voiceplane/domain';
import { Clock } from '../ports';
import { ConversationRepository } from '../conversations';
import { Outbox } from '../ports';
import { WebhookDeliveries } from '../webhooks';
import { messageStatusChanged } from './message-events';
import { ChatappMessageRepository, SenderRepository } from './ports';

/** Where a status is applied and what it reads. */
export interface DeliveryStatusRecords {
  readonly messages: ChatappMessageRepository;
  readonly senders: SenderRepository;
  readonly conversations: ConversationRepository;
}

/** Who hears of a status change: the sender's status webhook and the account's event stream. */
export interface DeliveryStatusAnnouncements {
  readonly deliveries: WebhookDeliveries;
  readonly outbox: Outbox;
}

export type DeliveryStatusRefusal = 'not_found' | 'inbound_message';

/**
 * A delivery status from the provider or the sandbox's message-status route: recorded in the
 * history, applied when it moves the message forward, and — when `status` changed and the sender
 * has a `status_webhook_url` — a `message_status` delivery in the same transaction; a changed
 * status is also an event of the account's stream.
 */
export class ApplyDeliveryStatus {
  private readonly messages: ChatappMessageRepository;
  private readonly senders: SenderRepository;
  private readonly conversations: ConversationRepository;
  private readonly deliveries: WebhookDeliveries;
  private readonly outbox: Outbox;

  constructor(
    records: DeliveryStatusRecords,
    announcements: DeliveryStatusAnnouncements,
    private readonly clock: Clock,
  ) {
    ({ messages: this.messages, senders: this.senders, conversations: this.conversations } = records);
    ({ deliveries: this.deliveries, outbox: this.outbox } = announcements);
  }

  async apply(
    chatappMessageId: number,
    update: MessageDeliveryUpdate,
  ): Promise<Result<ChatappMessage, DeliveryStatusRefusal>> {
    const applied = await this.messages.updateDelivery(chatappMessageId, async (message) => {
      const change = applyMessageDeliveryUpdate(message, update);
      if (!change.ok) return err('inbound_message' as const);
      const now = this.clock.now();
      const next: ChatappMessage = { ...message, ...change.value.next, updatedAt: now };
      if (change.value.events.length > 0) await this.announce(next, update);
      return ok({ next: change.value.next, at: now, answer: next });
    });
    return applied.ok ? ok(applied.value) : err(applied.error);
  }

  private async announce(message: ChatappMessage, update: MessageDeliveryUpdate): Promise<void> {
    const conversation = await this.conversations.findOwned(message.userId, { id: message.conversationId });
    if (conversation !== null) await this.outbox.add([messageStatusChanged(conversation, message)]);
    const sender = await this.senders.findOwned(message.userId, message.senderId);
    if (sender === null || sender.statusWebhookUrl === null) return;
    await this.deliveries.enqueue({
      userId: message.userId,
      eventType: 'message_status',
      targetUrl: sender.statusWebhookUrl,
      payload: {
        event: 'message_status',
        chatapp_message_id: message.id,
        message_sid: message.messageSid,
        conversation_id: conversation?.uuid ?? null,
        sender: { id: sender.id, phone_number: sender.phoneNumber, display_name: sender.displayName },
        to: message.to,
        from: message.from,
        direction: message.direction,
        status: message.status,
        error_code: message.errorCode,
        error_message: message.errorMessage,
        timestamp: update.at.toISOString(),
      },
      source: { type: 'sender', id: sender.id },
      subject: { type: 'chatapp_message', id: message.id },
    });
  }
}
