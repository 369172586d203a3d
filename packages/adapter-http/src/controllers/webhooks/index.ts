export { WebhookController } from './webhook-controller';
