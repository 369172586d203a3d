export { ChatbotController } from './chatbot-controller';
export { GenerateReplyController } from './generate-reply-controller';
export { WidgetController, WidgetSettingsController } from './widget-controller';
export { WIDGET_SCRIPT } from './widget-script';
