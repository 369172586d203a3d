import { InMemoryToolRepository, ManualClock } from '@voiceplane/adapter-fakes';
import { toolRepositoryContract } from './tool-repository.contract';

toolRepositoryContract('in-memory', async () => ({
  tools: new InMemoryToolRepository(new ManualClock(new Date('2030-04-01T09:00:00.000Z'))),
  users: [1, 2],
}));
