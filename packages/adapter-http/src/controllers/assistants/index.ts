export { AssistantController } from './assistant-controller';
export { AssistantWebhookController } from './assistant-webhook-controller';
export { ReferenceDataController } from './reference-data-controller';
export { AssistantAdminController } from './assistant-admin-controller';
