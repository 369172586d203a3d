import { randomUUID } from 'node:crypto';
import {
  InMemoryChatappMessageRepository,
  InMemoryConversationRepository,
  InMemoryInboundMediaRepository,
  InMemorySandboxChatappState,
  InMemorySendReservationRepository,
  InMemorySenderRepository,
  InMemoryTemplateRepository,
} from '@voiceplane/adapter-fakes';
import { chatappRepositoriesContract } from './chatapp-repositories.contract';
import { sandboxChatappStateContract } from './sandbox-chatapp-state.contract';
import { sendReservationsContract } from './send-reservations.contract';

chatappRepositoriesContract('in-memory', async () => {
  const senders = new InMemorySenderRepository();
  const messages = new InMemoryChatappMessageRepository();
  return {
    senders,
    messages,
    users: [1, 2],
    media: new InMemoryInboundMediaRepository(messages),
    templates: new InMemoryTemplateRepository(
      async (senderId) =>
        (await senders.findOwned(1, senderId))?.userId ?? (await senders.findOwned(2, senderId))?.userId ?? null,
    ),
    conversations: new InMemoryConversationRepository(messages),
  };
});

sandboxChatappStateContract('in-memory', async () => ({ state: new InMemorySandboxChatappState(), users: [1, 2] }));

sendReservationsContract('in-memory', async () => {
  const conversations = new InMemoryConversationRepository(new InMemoryChatappMessageRepository());
  const conversation = await conversations.lockOrCreate({
    userId: 1,
    senderId: 7,
    customerPhone: '+14155551234',
    uuid: randomUUID(),
    now: new Date(),
  });
  return {
    reservations: new InMemorySendReservationRepository(conversations),
    users: [1, 2],
    conversations,
    conversation,
  };
});
