export { ChatappSenderController } from './sender-controller';
export { ChatappSendController } from './send-controller';
export { SandboxChatappController } from './sandbox-chatapp-controller';
export { ChatappMediaController } from './media-controller';
