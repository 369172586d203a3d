import { InMemoryCallPermissionRepository } from '@voiceplane/adapter-fakes';
import { callPermissionRepositoryContract } from './call-permission-repository.contract';

callPermissionRepositoryContract('in-memory', async () => {
  const permissions = new InMemoryCallPermissionRepository();
  return { permissions, stored: async (senderId, phone) => permissions.isStored(senderId, phone) };
});
