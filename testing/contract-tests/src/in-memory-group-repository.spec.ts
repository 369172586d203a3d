import {
  InMemoryAssistantRepository,
  InMemoryGroupRepository,
  InMemoryOutbox,
  InMemoryToolRepository,
  ManualClock,
} from '@voiceplane/adapter-fakes';
import { GroupKind, groupRepositoryContract } from './group-repository.contract';

for (const kind of ['folders', 'labels'] as const satisfies readonly GroupKind[]) {
  groupRepositoryContract('in-memory', kind, async () => {
    const clock = new ManualClock(new Date('2030-04-01T09:00:00.000Z'));
    const assistants = new InMemoryAssistantRepository(new InMemoryToolRepository(clock), clock, new InMemoryOutbox());
    return { assistants, groups: new InMemoryGroupRepository(kind, assistants), users: [1, 2] };
  });
}
