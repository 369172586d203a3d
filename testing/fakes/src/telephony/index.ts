export { InMemoryProvisioningCleanupQueue } from './provisioning-cleanup-queue';
export { InMemoryPhoneNumbers } from './phone-numbers';
