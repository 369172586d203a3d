export * from './web-chat';
export * from './widget';
