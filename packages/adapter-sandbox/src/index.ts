export {};
export * from './telephony';
export * from './voice-runtime';
export * from './billing';
export * from './chatapp';
export * from './automations/rollback-faults';
export * from './sms';
