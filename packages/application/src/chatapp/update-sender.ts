import { Sender } from '@voiceplane/domain';
import { Clock } from '../ports/clock';
import { UnitOfWork } from '../ports/unit-of-work';
import { WebhookDeliveries } from '../webhooks/webhook-deliveries';
import { SenderChanges, SenderRepository } from './ports';

/**
 * `PUT /api/user/chatapp/senders/{id}`. Clearing `status_webhook_url` cancels the sender's pending
 * `message_status` deliveries in the same transaction.
 */
export class UpdateSender {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly senders: SenderRepository,
    private readonly deliveries: WebhookDeliveries,
    private readonly clock: Clock,
  ) {}

  execute(userId: number, senderId: number, changes: SenderChanges): Promise<Sender | null> {
    return this.uow.transaction(async () => {
      const before = await this.senders.findOwned(userId, senderId);
      if (before === null) return null;
      const now = this.clock.now();
      const after = await this.senders.update(userId, senderId, changes, now);
      if (after !== null && before.statusWebhookUrl !== null && after.statusWebhookUrl === null) {
        await this.deliveries.cancelPending({ userId, source: { type: 'sender', id: senderId }, eventTypes: ['message_status'], createdUpTo: now });
      }
      return after;
    });
  }
}
