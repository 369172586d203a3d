import { token } from '../shared/token';
import type { WebhookDeliveryRepository } from './ports';
import type { SendTestWebhook } from './send-test-webhook';
import type { WebhookDeliveries } from './webhook-deliveries';
import type { WebhookSender } from './webhook-sender';

export const WEBHOOK_TOKENS = {
  WebhookDeliveryRepository: token<WebhookDeliveryRepository>('WebhookDeliveryRepository'),
  WebhookDeliveries: token<WebhookDeliveries>('WebhookDeliveries'),
  WebhookSender: token<WebhookSender>('WebhookSender'),
  SendTestWebhook: token<SendTestWebhook>('SendTestWebhook'),
} as const;
