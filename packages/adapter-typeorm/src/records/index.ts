import { EntitySchema } from 'typeorm';
import { accountRecords } from './accounts';
import { assistantRecords } from './assistants';
import { callRecords } from './calls';
import { catalogRecords } from './catalog';
import { chatappRecords } from './chatapp';
import { eventRecords } from './events';
import { requestGuardRecords } from './request-guards';
import { telephonyRecords } from './telephony';
import { toolRecords } from './tools';
import { webhookRecords } from './webhooks';

export * from './accounts';
export * from './assistants';
export * from './calls';
export * from './catalog';
export * from './chatapp';
export * from './events';
export * from './request-guards';
export * from './telephony';
export * from './tools';
export * from './webhooks';

/** Every EntitySchema the DataSource knows: one per table the migrations create (the schema-drift test holds them equal). */
export const entitySchemas: EntitySchema[] = [
  ...accountRecords, ...requestGuardRecords, ...eventRecords, ...webhookRecords, ...catalogRecords, ...toolRecords,
  ...telephonyRecords, ...assistantRecords, ...callRecords,
  ...chatappRecords,
];
