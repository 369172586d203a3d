export * from './instructions';
export * from './tool-functions';
export * from './ports';
export * from './conversation-brain';
export * from './built-ins';
export * from './knowledge-passages';
