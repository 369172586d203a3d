import { token } from '../common/token';
import type { WebChatRepository } from './ports';
import type { WebChats } from './web-chats';

export const WEB_CHAT_TOKENS = {
  WebChatRepository: token<WebChatRepository>('WebChatRepository'),
  WebChats: token<WebChats>('WebChats'),
} as const;
