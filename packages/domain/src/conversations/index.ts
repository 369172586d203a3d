export * from './conversation';
export * from './ai-takeover';
export * from './inactivity';
