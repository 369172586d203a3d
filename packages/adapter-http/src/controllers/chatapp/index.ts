export { ChatappSenderController, chatappSenderRouteDocs } from './sender-controller';
export { ChatappSendController, chatappSendRouteDocs } from './send-controller';
export { ConversationController, conversationRouteDocs } from './conversation-controller';
export { SandboxChatappController, sandboxChatappRouteDocs } from './sandbox-chatapp-controller';
export { SandboxConversationController, sandboxConversationRouteDocs } from './sandbox-conversation-controller';
export { ChatappMediaController, chatappMediaRouteDocs } from './media-controller';
