export { ConversationController } from './conversation-controller';
export { SandboxConversationController } from './sandbox-conversation-controller';
