export { TopUpController } from './top-up-controller';
export { AutoRechargeController } from './auto-recharge-controller';
export { BillingIngressController } from './billing-ingress-controller';
export { SandboxBillingController } from './sandbox-billing-controller';
export { AdminTopUpController } from './admin-top-up-controller';
export { SandboxCheckoutController } from './sandbox-checkout-controller';
