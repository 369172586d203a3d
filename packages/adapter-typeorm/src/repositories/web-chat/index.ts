export { TypeormWebChatRepository } from './web-chat-repository';
export { TypeormWidgetSettingsRepository } from './widget-settings-repository';
