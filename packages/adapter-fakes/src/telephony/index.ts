export { InMemoryProvisioningCleanupQueue } from './provisioning-cleanup-queue';
