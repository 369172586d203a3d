export { AssistantController, assistantRouteDocs } from './assistant-controller';
export { AssistantWebhookController, assistantWebhookRouteDocs } from './assistant-webhook-controller';
export { ReferenceDataController, referenceDataRouteDocs } from './reference-data-controller';
export { FolderController, folderRouteDocs } from './folder-controller';
export { LabelController, labelRouteDocs } from './label-controller';
export { AssistantAdminController, assistantAdminRouteDocs } from './assistant-admin-controller';
