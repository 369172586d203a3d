export * from './ports';
export * from './tokens';
export * from './inactivity-schedule';
export * from './toggle-ai';
export * from './conversation-queries';
export * from './end-inactive-conversation';
export * from './cursor-page';
