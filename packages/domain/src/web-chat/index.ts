export * from './web-chat';
