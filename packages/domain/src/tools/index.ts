export * from './tool';
export * from './tool-rules';
export * from './placeholders';
export * from './parameters';
export * from './variables';
export * from './tool-request';
export * from './tool-result';
