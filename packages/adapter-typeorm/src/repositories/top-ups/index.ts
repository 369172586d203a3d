export { TypeormTopUpRepository } from './top-up-repository';
export { TypeormAutoRechargeRepository } from './auto-recharge-repository';
export { TypeormBillingProfileRepository } from './billing-profile-repository';
export { TypeormBillingInbox } from './billing-inbox';
export { PostgresArmedBillingFaults } from './armed-billing-faults';
