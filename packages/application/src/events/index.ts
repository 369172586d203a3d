export * from './ports';
export * from './doorbell';
export * from './outbox-relay';
export * from './job-runner';
export * from './consumers';
export * from './polling-loop';
