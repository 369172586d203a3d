export { createDataSource, migrate, pendingMigrations, type DataSourceOptions } from './data-source';
export { Database } from './database';
/** Every migration in order (a migration that rewrites data is tested by running it again over such data). */
export { migrations } from './migrations';
export { TypeormUserRepository } from './repositories/user-repository';
export { TypeormLedgerRepository } from './repositories/ledger-repository';
export { TypeormCredentialRepository } from './repositories/credential-repository';
export { TypeormSigningSecretRepository } from './repositories/signing-secret-repository';
export { TypeormSettingsRepository } from './repositories/settings-repository';
export { PostgresRateLimitStore } from './repositories/rate-limit-store';
export { PostgresIdempotencyStore } from './repositories/idempotency-store';
export { TypeormOutbox } from './repositories/outbox-writer';
export { CommitNotifier, JobsNotifier, OutboxNotifier } from './outbox/outbox-notifier';
export * from './repositories/assistants';
export * from './repositories/knowledge-bases';
export * from './repositories/campaigns';
export * from './repositories/tools';
export * from './repositories/telephony';
export * from './repositories/sms';
export { PostgresUnpublishedEvents } from './outbox/unpublished-events';
export { PostgresProcessedEvents } from './outbox/processed-events';
export {
  PostgresNotifications,
  JOBS_CHANNEL,
  PRINCIPALS_CHANNEL,
  OUTBOX_CHANNEL,
  type NotificationBell,
} from './outbox/notifications';
export { EventRetention } from './outbox/event-retention';
export { PostgresJobStore } from './scheduler/postgres-job-store';
export { TypeormWebhookDeliveryRepository } from './repositories/webhooks/webhook-delivery-repository';
export * from './repositories/calls';
export * from './repositories/analytics';
export * from './repositories/automations';
export * from './repositories/chatapp';
export * from './repositories/call-permissions';
export * from './repositories/web-chat';
export * from './repositories/top-ups';
export * from './repositories/chatapp';
export * from './repositories/account-events';
