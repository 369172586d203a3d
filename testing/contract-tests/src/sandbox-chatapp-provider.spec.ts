import { InMemorySandboxChatappState, SequentialIds } from '@voiceplane/adapter-fakes';
import { CHATAPP_SEND_FAULT, SandboxChatappProvider } from '@voiceplane/adapter-sandbox';
import { chatappProviderContract } from './chatapp-provider.contract';

chatappProviderContract('sandbox', async () => {
  const state = new InMemorySandboxChatappState();
  const sender = { senderId: 12, userId: 7, phoneNumber: '+15550783881', credentials: null };
  return {
    provider: new SandboxChatappProvider(state, new SequentialIds(), () => new Date('2030-05-01T12:00:00.000Z')),
    sender,
    refusedSender: async () => {
      const refused = { ...sender, senderId: 13 };
      await state.armFault({ kind: CHATAPP_SEND_FAULT, userId: refused.userId, targetId: refused.senderId, count: 1 });
      return refused;
    },
    delivered: async () => (await state.outbox(sender.userId, {}, 100)).reverse().map((m) => m.to),
  };
});
