import { InMemoryArmedBillingFaults } from '@voiceplane/adapter-fakes';
import { SandboxBillingGateway } from '@voiceplane/adapter-sandbox';
import { billingGatewayContract } from './billing-gateway.contract';

billingGatewayContract('sandbox', () => {
  const faults = new InMemoryArmedBillingFaults();
  const account = (userId: number) => ({
    userId,
    email: `u${userId}@example.com`,
    name: 'Ann',
    customerRef: null,
    paymentMethodRef: null,
  });
  return {
    gateway: new SandboxBillingGateway('http://127.0.0.1:3000', faults),
    chargeable: account,
    declining: async (userId) => {
      await faults.arm(userId, 1);
      return account(userId);
    },
    failNextCheckout: async (userId) => void (await faults.arm(userId, 1)),
  };
});
