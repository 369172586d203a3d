export * from './ports';
export * from './events';
export * from './save-assistant';
export * from './assistant-lifecycle';
export * from './assistant-queries';
export * from './reference-data';
export * from './administer-assistants';
