import { InMemoryEventTypeRepository, ManualClock } from '@voiceplane/adapter-fakes';
import { eventTypeRepositoryContract } from './event-type-repository.contract';

eventTypeRepositoryContract('in-memory', async () => ({
  eventTypes: new InMemoryEventTypeRepository(new ManualClock(new Date('2030-04-01T09:00:00.000Z'))),
  users: [1, 2],
}));
