import {
  InMemoryChatappMessageRepository,
  InMemoryConversationRepository,
  InMemoryWebChatRepository,
  InMemoryWidgetSettingsRepository,
} from '@voiceplane/adapter-fakes';
import { webChatRepositoriesContract } from './web-chat-repositories.contract';

webChatRepositoriesContract('in-memory', async () => {
  const messages = new InMemoryChatappMessageRepository();
  const conversations = new InMemoryConversationRepository(messages);
  return {
    conversations,
    chats: new InMemoryWebChatRepository(conversations, messages, () => []),
    settings: new InMemoryWidgetSettingsRepository(),
    users: [1, 2],
    assistants: [11, 12],
  };
});
