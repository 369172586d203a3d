export * from './ports';
export * from './tokens';
export * from './inactivity-schedule';
export * from './toggle-ai';
export * from './end-inactive-conversation';
export * from './cursor-page';
