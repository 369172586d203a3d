export { TypeormWebChatRepository } from './web-chat-repository';
