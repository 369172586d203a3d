export { SipTrunkController } from './sip-trunk-controller';
export { PhoneNumberController } from './phone-number-controller';
export { AssistantNumberController } from './assistant-number-controller';
export { SandboxFaultController } from './sandbox-fault-controller';
export { SandboxFaults, type FaultArmer, type FaultRequest } from './sandbox-faults';
