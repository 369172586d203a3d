export { ChatbotController } from './chatbot-controller';
export { GenerateReplyController } from './generate-reply-controller';
