export * from './window';
export * from './session-status';
export * from './sender';
export * from './template';
export * from './template-placeholders';
export * from './pricing';
export * from './send-decision';
export * from './message-delivery';
