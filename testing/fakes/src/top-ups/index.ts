export { InMemoryTopUpRepository } from './top-ups';
export { InMemoryAutoRechargeRepository } from './auto-recharges';
export { InMemoryBillingProfileRepository } from './billing-profiles';
export { InMemoryBillingInbox } from './billing-inbox';
export { InMemoryArmedBillingFaults } from './armed-billing-faults';
export { FakeBillingGateway } from './billing-gateway';
