import { SandboxSipProvisioner } from '@voiceplane/adapter-sandbox';
import { sipProvisionerContract } from './sip-provisioner.contract';

sipProvisionerContract('sandbox', () => {
  const provisioner = new SandboxSipProvisioner();
  return {
    provisioner,
    provider: {
      trunks: () => provisioner.trunks().map((t) => ({ id: t.id, direction: t.direction, phoneNumber: t.phoneNumber })),
      routes: () => provisioner.routes().map((r) => ({ id: r.id, inboundTrunkId: r.trunkId })),
      startCall: (trunkId) => {
        provisioner.setActiveCalls(trunkId, 1);
        return () => provisioner.setActiveCalls(trunkId, 0);
      },
      refuseNext: (owner) =>
        void provisioner.faults.arm({ accountId: owner.accountId, targetId: owner.phoneNumberId, count: 1 }),
    },
  };
});
