export * from './ports';
export * from './tokens';
export * from './web-chats';
