import { token } from '../shared/token';
import type { ChatappInboundHandler, ChatappProvider, ReplyGenerator } from './provider-ports';

/** The seam between the chat-app core and its providers: each side binds or asks for these. */
export const CHATAPP_TOKENS = {
  /** Where verified ingress items go; bound by the chat-app core. */
  ChatappInboundHandler: token<ChatappInboundHandler>('ChatappInboundHandler'),
  /** The configured chat app: the sandbox or WhatsApp Cloud (CHATAPP_PROVIDER). */
  ChatappProvider: token<ChatappProvider>('ChatappProvider'),
  /** The configured assistant answer generator: the sandbox or an OpenAI-compatible API (REPLY_GENERATOR). */
  ReplyGenerator: token<ReplyGenerator>('ReplyGenerator'),
} as const;
