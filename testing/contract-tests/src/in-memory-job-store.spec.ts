import { InMemoryJobStore } from '@voiceplane/adapter-fakes';
import { jobStoreContract } from './job-store.contract';

jobStoreContract('in-memory', async () => {
  const store = new InMemoryJobStore();
  return { store, jobs: async () => store.jobs() };
});
