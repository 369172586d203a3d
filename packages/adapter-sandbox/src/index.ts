export {};
export * from './telephony';
export * from './voice-runtime';
export * from './automations/rollback-faults';
