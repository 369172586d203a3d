import { createStripeClient, StripeBillingGateway } from '@voiceplane/adapter-stripe';
import {
  DECLINED_PAYMENT_METHOD,
  SAVED_PAYMENT_METHOD,
  StripeStub,
} from '@voiceplane/adapter-stripe/test-support/stripe-stub';
import { billingGatewayContract } from './billing-gateway.contract';

let stub: StripeStub;
beforeAll(async () => {
  stub = await StripeStub.start();
});
afterAll(async () => stub.close());

billingGatewayContract('Stripe (API stub)', () => {
  stub.reset();
  const account = (userId: number, paymentMethodRef: string) => ({
    userId,
    email: `u${userId}@example.com`,
    name: 'Ann',
    customerRef: 'cus_saved',
    paymentMethodRef,
  });
  return {
    gateway: new StripeBillingGateway(
      createStripeClient({ secretKey: 'sk_test_stub_0123456789', apiBase: stub.baseUrl }),
      { returnUrl: 'https://app.example.com' },
    ),
    chargeable: (userId) => account(userId, SAVED_PAYMENT_METHOD),
    declining: async (userId) => account(userId, DECLINED_PAYMENT_METHOD),
    failNextCheckout: async () => {
      stub.outage = 500;
    },
  };
});
