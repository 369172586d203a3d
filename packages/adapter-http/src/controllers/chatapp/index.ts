export { ChatappSenderController } from './sender-controller';
export { ChatappSendController } from './send-controller';
export { ConversationController } from './conversation-controller';
export { SandboxChatappController } from './sandbox-chatapp-controller';
export { SandboxConversationController } from './sandbox-conversation-controller';
export { ChatappMediaController } from './media-controller';
