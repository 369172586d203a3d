export * from './ports';
export * from './send-sms';
export * from './sms-status';
export * from './sandbox-sms-controls';
export * from './sms-settlement-sweep';
