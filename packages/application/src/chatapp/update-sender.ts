import { Sender } from '@voiceplane/domain';
import { Clock } from '../ports';
import { UnitOfWork } from '../ports';
import { WebhookDeliveries } from '../webhooks';
import type { ChatappCallingLines } from './calling-lines';
import { SenderChanges, SenderRepository } from './ports';

/**
 * `PUT /api/user/chatapp/senders/{id}`. Clearing `status_webhook_url` cancels the sender's pending
 * `message_status` deliveries in the same transaction. Turning `calling_enabled` on sets the
 * sender's chat-app calling line up (with a real chat app on LiveKit), after the change is stored.
 */
export class UpdateSender {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly senders: SenderRepository,
    private readonly deliveries: WebhookDeliveries,
    private readonly clock: Clock,
    private readonly callingLines: ChatappCallingLines | null = null,
  ) {}

  async execute(userId: number, senderId: number, changes: SenderChanges): Promise<Sender | null> {
    const updated = await this.update(userId, senderId, changes);
    if (
      updated !== null &&
      this.callingLines !== null &&
      updated.after.callingEnabled &&
      !updated.before.callingEnabled
    ) {
      await this.callingLines.setUp(updated.after);
    }
    return updated?.after ?? null;
  }

  private update(
    userId: number,
    senderId: number,
    changes: SenderChanges,
  ): Promise<{ before: Sender; after: Sender } | null> {
    return this.uow.transaction(async () => {
      const before = await this.senders.findOwned(userId, senderId);
      if (before === null) return null;
      const now = this.clock.now();
      const after = await this.senders.update(userId, senderId, changes, now);
      if (after !== null && before.statusWebhookUrl !== null && after.statusWebhookUrl === null) {
        await this.deliveries.cancelPending({
          userId,
          source: { type: 'sender', id: senderId },
          eventTypes: ['message_status'],
          createdUpTo: now,
        });
      }
      return after === null ? null : { before, after };
    });
  }
}
