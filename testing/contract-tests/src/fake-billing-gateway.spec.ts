import { FakeBillingGateway } from '@voiceplane/adapter-fakes';
import { billingGatewayContract } from './billing-gateway.contract';

billingGatewayContract('in-memory fake', () => {
  const gateway = new FakeBillingGateway();
  const account = (userId: number) => ({
    userId,
    email: `u${userId}@example.com`,
    name: 'Ann',
    customerRef: 'cus_saved',
    paymentMethodRef: 'pm_saved',
  });
  return {
    gateway,
    chargeable: account,
    declining: async (userId) => {
      gateway.declineNext(userId);
      return account(userId);
    },
    failNextCheckout: async () => {
      gateway.down = true;
    },
  };
});
