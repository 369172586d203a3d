export * from './ports';
export * from './events';
export * from './save-assistant';
export * from './assistant-lifecycle';
