import { TypeormProvisioningCleanupQueue } from '@voiceplane/adapter-typeorm';
import { useTestDatabase } from '@voiceplane/test-env';
import { provisioningCleanupQueueContract } from './provisioning-cleanup-queue.contract';

const database = useTestDatabase();

provisioningCleanupQueueContract('PostgreSQL', async () => {
  const db = database();
  await db.query('DELETE FROM sip_provisioning_cleanup');
  return new TypeormProvisioningCleanupQueue(db);
});
