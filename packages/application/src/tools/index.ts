export * from './ports';
export * from './tool-gateway';
export * from './tool-preview';
export * from './manage-tools';
export * from './invoke-tool-for-call';
export * from './invoke-tool-for-conversation';
