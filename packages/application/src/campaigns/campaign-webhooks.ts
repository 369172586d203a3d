import { UnitOfWork } from '../ports';
import { AssistantRepository } from '../assistants';
import { oncePerEvent } from '../events';
import { EventConsumer, ProcessedEvents } from '../events';
import { WebhookDeliveries } from '../webhooks';
import { CAMPAIGN_TOPICS, CampaignTopic } from './campaign-events';

export const CAMPAIGN_WEBHOOK_CONSUMER = 'campaign-webhooks';

interface CampaignEventMessage {
  readonly event: CampaignTopic;
  readonly user_id: number;
  readonly campaign: { readonly id: number; readonly assistant_id: number } & Record<string, unknown>;
}

/**
 * `campaign.started` / `.stopped` / `.completed` as signed webhooks: each event, once published
 * from the outbox, becomes a delivery to the campaign's assistant's `webhook_url` while that
 * webhook is active — the URL that already receives the campaign's `post_call`. Retries, the
 * deliveries list and replay are the pipeline's; switching the webhook off cancels what is pending.
 */
export function campaignWebhookConsumer(
  uow: UnitOfWork,
  processed: ProcessedEvents,
  assistants: AssistantRepository,
  deliveries: WebhookDeliveries,
): EventConsumer {
  return {
    topicPattern: 'campaign.*',
    options: { consumer: CAMPAIGN_WEBHOOK_CONSUMER, maxRetries: 10, retryDelayMs: 5_000 },
    handle: oncePerEvent(uow, processed, CAMPAIGN_WEBHOOK_CONSUMER, async (message) => {
      if (!(CAMPAIGN_TOPICS as readonly string[]).includes(message.topic)) return;
      const payload = message.payload as CampaignEventMessage;
      // The assistant's row is held while the delivery is written: a concurrent switch-off commits
      // first (nothing is sent) or after (its cancellation finds this delivery pending).
      const assistant = await assistants.findOwned(payload.user_id, payload.campaign.assistant_id, { lock: true });
      if (assistant === null || !assistant.isWebhookActive || assistant.webhookUrl === null) return;
      await deliveries.enqueue({
        userId: payload.user_id,
        eventType: message.topic as CampaignTopic,
        targetUrl: assistant.webhookUrl,
        payload: { event: payload.event, campaign: payload.campaign, timestamp: message.occurredAt },
        source: { type: 'assistant', id: assistant.id },
        subject: null,
      });
    }),
  };
}
