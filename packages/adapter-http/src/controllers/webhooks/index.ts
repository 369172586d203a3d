export { WebhookController, webhookRouteDocs } from './webhook-controller';
