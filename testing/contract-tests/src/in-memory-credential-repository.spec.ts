import { InMemoryCredentialRepository, InMemoryUserRepository, ManualClock } from '@voiceplane/adapter-fakes';
import { credentialRepositoryContract } from './credential-repository.contract';

credentialRepositoryContract('in-memory', async () => {
  const clock = new ManualClock(new Date('2030-04-01T09:00:00.000Z'));
  const users = new InMemoryUserRepository(clock);
  return { users, credentials: new InMemoryCredentialRepository(users, clock) };
});
