import { InMemoryCallRepository, InMemoryOutbox } from '@voiceplane/adapter-fakes';
import { callRepositoryContract } from './call-repository.contract';

callRepositoryContract('in-memory', async () => {
  const outbox = new InMemoryOutbox();
  return {
    calls: new InMemoryCallRepository(outbox),
    users: [1, 2],
    outbox: async () => outbox.events().map(({ topic, payload }) => ({ topic, payload })),
  };
});
