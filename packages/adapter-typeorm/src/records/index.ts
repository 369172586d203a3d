import { EntitySchema } from 'typeorm';
import { accountEventRecords } from './account-events';
import { accountRecords } from './accounts';
import { assistantRecords } from './assistants';
import { automationRecords } from './automations';
import { callRecords } from './calls';
import { callDailyRollupRecords } from './call-daily-rollups';
import { campaignRecords } from './campaigns';
import { callPermissionRecords } from './call-permissions';
import { catalogRecords } from './catalog';
import { chatappInboxRecords } from './chatapp-inbox';
import { chatappRecords } from './chatapp';
import { eventRecords } from './events';
import { knowledgeBaseRecords } from './knowledge-bases';
import { requestGuardRecords } from './request-guards';
import { telephonyRecords } from './telephony';
import { toolRecords } from './tools';
import { topUpRecords } from './top-ups';
import { webhookRecords } from './webhooks';
import { webChatRecords } from './web-chat';
import { smsRecords } from './sms';

export * from './account-events';
export * from './accounts';
export * from './assistants';
export * from './automations';
export * from './calls';
export * from './call-daily-rollups';
export * from './campaigns';
export * from './call-permissions';
export * from './catalog';
export * from './chatapp-inbox';
export * from './chatapp';
export * from './events';
export * from './knowledge-bases';
export * from './request-guards';
export * from './telephony';
export * from './tools';
export * from './top-ups';
export * from './webhooks';
export * from './web-chat';
export * from './sms';

/** Every EntitySchema the DataSource knows: one per table the migrations create (the schema-drift test holds them equal). */
export const entitySchemas: EntitySchema[] = [
  ...accountRecords,
  ...requestGuardRecords,
  ...eventRecords,
  ...webhookRecords,
  ...catalogRecords,
  ...toolRecords,
  ...telephonyRecords,
  ...assistantRecords,
  ...callRecords,
  ...callDailyRollupRecords,
  ...campaignRecords,
  ...automationRecords,
  ...chatappInboxRecords,
  ...callPermissionRecords,
  ...topUpRecords,
  ...chatappRecords,
  ...knowledgeBaseRecords,
  ...webChatRecords,
  ...smsRecords,
  ...accountEventRecords,
];
export * from './record';
