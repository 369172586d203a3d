export { TypeormSipTrunkRepository } from './sip-trunk-repository';
export { TypeormPhoneNumberRepository } from './phone-number-repository';
export { TypeormProvisioningCleanupQueue } from './provisioning-cleanup-queue';
