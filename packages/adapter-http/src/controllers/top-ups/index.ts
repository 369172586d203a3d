export { TopUpController, topUpRouteDocs } from './top-up-controller';
export { AutoRechargeController, autoRechargeRouteDocs } from './auto-recharge-controller';
export { BillingIngressController, billingIngressRouteDocs } from './billing-ingress-controller';
export { SandboxBillingController, sandboxBillingRouteDocs } from './sandbox-billing-controller';
export { SandboxCheckoutController } from './sandbox-checkout-controller';
