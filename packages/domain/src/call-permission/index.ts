export * from './call-permission';
export * from './permission-asks';
export * from './permission-request';
export * from './chatapp-call-decision';
export * from './preflight';
export * from './sender-region';
export * from './call-variables';
export * from './user-quotas';
export type { SlidingWindowUsage } from './sliding-window';
