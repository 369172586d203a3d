import { token } from '../common';
import type { WebChatRepository, WidgetSettingsRepository } from './ports';
import type { WebWidget } from './web-widget';
import type { WebChats } from './web-chats';
import type { WidgetStreams } from './widget-streams';

export const WEB_CHAT_TOKENS = {
  WebChatRepository: token<WebChatRepository>('WebChatRepository'),
  WebChats: token<WebChats>('WebChats'),
  WidgetSettingsRepository: token<WidgetSettingsRepository>('WidgetSettingsRepository'),
  WebWidget: token<WebWidget>('WebWidget'),
  WidgetStreams: token<WidgetStreams>('WidgetStreams'),
} as const;
