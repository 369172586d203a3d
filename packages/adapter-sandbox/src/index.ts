export {};
export * from './telephony';
export * from './voice-runtime';
export * from './chatapp';
