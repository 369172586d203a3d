export { SipTrunkController, sipTrunkRouteDocs } from './sip-trunk-controller';
export { PhoneNumberController, phoneNumberRouteDocs } from './phone-number-controller';
export { AssistantNumberController, assistantNumberRouteDocs } from './assistant-number-controller';
export { SandboxFaultController, sandboxFaultRouteDocs } from './sandbox-fault-controller';
export { SandboxFaults, type FaultArmer, type FaultRequest } from './sandbox-faults';
