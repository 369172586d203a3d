export * from './ports';
export * from './webhook-deliveries';
export * from './webhook-sender';
export * from './send-test-webhook';
export * from './consumers';
export * from './delivery-log';
export * from './signing-secrets';
