import { token } from '../common';
import type { DeliveryLog } from './delivery-log';
import type { WebhookDeliveryRepository } from './ports';
import type { SendTestWebhook } from './send-test-webhook';
import type { SigningSecrets } from './signing-secrets';
import type { WebhookDeliveries } from './webhook-deliveries';
import type { WebhookSender } from './webhook-sender';

export const WEBHOOK_TOKENS = {
  WebhookDeliveryRepository: token<WebhookDeliveryRepository>('WebhookDeliveryRepository'),
  WebhookDeliveries: token<WebhookDeliveries>('WebhookDeliveries'),
  WebhookSender: token<WebhookSender>('WebhookSender'),
  SendTestWebhook: token<SendTestWebhook>('SendTestWebhook'),
  DeliveryLog: token<DeliveryLog>('DeliveryLog'),
  SigningSecrets: token<SigningSecrets>('SigningSecrets'),
} as const;
