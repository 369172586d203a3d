export * from './conversation';
export * from './message';
export * from './ai-takeover';
export * from './inactivity';
export * from './ended-payload';
export * from './evaluation';
