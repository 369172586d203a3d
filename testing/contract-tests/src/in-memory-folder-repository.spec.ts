import {
  InMemoryAssistantRepository,
  InMemoryFolderRepository,
  InMemoryOutbox,
  InMemoryToolRepository,
  ManualClock,
} from '@voiceplane/adapter-fakes';
import { FolderKind, folderRepositoryContract } from './folder-repository.contract';

for (const kind of ['folders', 'labels'] as const satisfies readonly FolderKind[]) {
  folderRepositoryContract('in-memory', kind, async () => {
    const clock = new ManualClock(new Date('2030-04-01T09:00:00.000Z'));
    const assistants = new InMemoryAssistantRepository(new InMemoryToolRepository(clock), clock, new InMemoryOutbox());
    return { assistants, folders: new InMemoryFolderRepository(kind, assistants), users: [1, 2] };
  });
}
