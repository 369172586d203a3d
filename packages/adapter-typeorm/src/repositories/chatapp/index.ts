export { PostgresChatappInbox } from './chatapp-inbox';
export { TypeormSenderRepository } from './sender-repository';
export { TypeormTemplateRepository } from './template-repository';
export { TypeormConversationRepository } from './conversation-repository';
export { TypeormChatappMessageRepository } from './chatapp-message-repository';
export { PostgresSandboxChatappState } from './sandbox-chatapp-state';
export { TypeormInboundMediaRepository } from './inbound-media-repository';
export { TypeormSendReservationRepository } from './send-reservation-repository';
