import { InMemoryProvisioningCleanupQueue } from '@voiceplane/adapter-fakes';
import { provisioningCleanupQueueContract } from './provisioning-cleanup-queue.contract';

provisioningCleanupQueueContract('in-memory', async () => new InMemoryProvisioningCleanupQueue());
