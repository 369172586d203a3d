export * from './armed-faults';
export * from './sandbox-sip-provisioner';
export * from './sandbox-number-inventory';
