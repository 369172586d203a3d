import { WebhookEventType } from '@voiceplane/domain';
import { UnitOfWork } from '../ports';
import { oncePerEvent } from '../events';
import { EventConsumer, JobHandler, ProcessedEvents } from '../events';
import { DELIVERY_ATTEMPT_JOB, DELIVERY_REQUESTED_TOPIC, WebhookDeliveries } from './webhook-deliveries';
import { DELIVERY_SENDER_CONSUMER, DELIVERY_SWEEP_JOB, WebhookSender } from './webhook-sender';

export const WEBHOOK_CANCELLATION_CONSUMER = 'webhook-cancellation';

/**
 * Assistant events that switch a webhook off, and the pending deliveries each cancels
 *. Payload: `{assistant_id, user_id}`.
 */
export const ASSISTANT_WEBHOOK_CANCELLATIONS: Readonly<Record<string, readonly WebhookEventType[]>> = {
  'assistant.webhook_disabled': ['post_call', 'campaign.started', 'campaign.stopped', 'campaign.completed'],
  'assistant.conversation_ended_webhook_cleared': ['conversation_ended'],
  'assistant.deleted': [
    'post_call',
    'conversation_ended',
    'campaign.started',
    'campaign.stopped',
    'campaign.completed',
  ],
};

interface DeliveryMessage {
  readonly delivery_id: string;
}
interface AssistantMessage {
  readonly assistant_id: number;
  readonly user_id: number;
}

/** First attempts, as soon as the relay publishes the delivery's event (idempotent by delivery state). */
export function deliverySenderConsumer(sender: WebhookSender, prefetch: number): EventConsumer {
  return {
    topicPattern: DELIVERY_REQUESTED_TOPIC,
    options: { consumer: DELIVERY_SENDER_CONSUMER, prefetch, maxRetries: 5, retryDelayMs: 2_000 },
    handle: (message) => sender.attemptIfDue((message.payload as DeliveryMessage).delivery_id),
  };
}

/** Cancels an assistant's pending deliveries when its webhook settings are switched off. */
export function assistantCancellationConsumer(
  uow: UnitOfWork,
  processed: ProcessedEvents,
  deliveries: WebhookDeliveries,
): EventConsumer {
  return {
    topicPattern: 'assistant.*',
    options: { consumer: WEBHOOK_CANCELLATION_CONSUMER, maxRetries: 10, retryDelayMs: 5_000 },
    handle: oncePerEvent(uow, processed, WEBHOOK_CANCELLATION_CONSUMER, async (message) => {
      const eventTypes = ASSISTANT_WEBHOOK_CANCELLATIONS[message.topic];
      if (!eventTypes) return;
      const { assistant_id: assistantId, user_id: userId } = message.payload as AssistantMessage;
      await deliveries.cancelPending({
        userId,
        source: { type: 'assistant', id: assistantId },
        eventTypes,
        createdUpTo: new Date(message.occurredAt),
      });
    }),
  };
}

/** Retries, and attempts the overdue sweep asks for. */
export function deliveryAttemptJobs(sender: WebhookSender): JobHandler {
  return {
    kind: DELIVERY_ATTEMPT_JOB,
    handle: (job) => sender.attemptIfDue((job.payload as DeliveryMessage).delivery_id),
  };
}

/** Every DELIVERY_SWEEP_EVERY_MS: deliveries whose bus message or worker was lost. */
export function deliverySweepJobs(sender: WebhookSender): JobHandler {
  return { kind: DELIVERY_SWEEP_JOB, handle: async () => void (await sender.sweepOverdue()) };
}
