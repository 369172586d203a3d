export * from './live-chat';
export * from './ports';
export * from './tokens';
export * from './web-chats';
export * from './web-widget';
export * from './widget-streams';
