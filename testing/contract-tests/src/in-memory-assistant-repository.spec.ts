import {
  InMemoryAssistantRepository,
  InMemoryOutbox,
  InMemoryToolRepository,
  ManualClock,
} from '@voiceplane/adapter-fakes';
import { assistantRepositoryContract } from './assistant-repository.contract';

assistantRepositoryContract('in-memory', async () => {
  const clock = new ManualClock(new Date('2030-04-01T09:00:00.000Z'));
  const tools = new InMemoryToolRepository(clock);
  const outbox = new InMemoryOutbox();
  const assistants = new InMemoryAssistantRepository(tools, clock, outbox);
  let lastId = 0;
  const key = { phone_number: 'phoneNumberIds', folder: 'folderIds', label: 'labelIds' } as const;
  return {
    assistants,
    tools,
    users: [1, 2],
    outbox: async () => outbox.events().map(({ topic, payload }) => ({ topic, payload })),
    own: async (userId, kind) => {
      assistants.own(userId, { [key[kind]]: [++lastId] });
      return lastId;
    },
  };
});
