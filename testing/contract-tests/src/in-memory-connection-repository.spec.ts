import { InMemoryConnectionRepository } from '@voiceplane/adapter-fakes';
import { connectionRepositoryContract } from './connection-repository.contract';

connectionRepositoryContract('in-memory', async () => ({
  connections: new InMemoryConnectionRepository(),
  users: [1, 2],
}));
