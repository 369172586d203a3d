export * from './ports';
export * from './tokens';
export * from './voice-webhook';
export * from './answer-call-permission';
export * from './voice-events';
