import { InMemoryAssistantRepository, InMemoryToolRepository, ManualClock } from '@voiceplane/adapter-fakes';
import { assistantRepositoryContract } from './assistant-repository.contract';

assistantRepositoryContract('in-memory', async () => {
  const clock = new ManualClock(new Date('2030-04-01T09:00:00.000Z'));
  const tools = new InMemoryToolRepository(clock);
  const assistants = new InMemoryAssistantRepository(tools, clock);
  let lastId = 0;
  const key = { phone_number: 'phoneNumberIds', folder: 'folderIds', label: 'labelIds' } as const;
  return {
    assistants, tools, users: [1, 2],
    own: async (userId, kind) => {
      assistants.own(userId, { [key[kind]]: [++lastId] });
      return lastId;
    },
  };
});
