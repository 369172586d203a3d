import { BillingAccount, BillingGateway, PayableTopUp } from '@voiceplane/application';

/** The provider's side, steered from outside the port. */
export interface BillingGatewaySubject {
  readonly gateway: BillingGateway;
  /** An account whose saved card the provider charges. */
  chargeable(userId: number): BillingAccount;
  /** An account whose next off-session charge the provider declines. */
  declining(userId: number): Promise<BillingAccount>;
  /** The provider cannot open this account's next checkout (an outage, or an injected fault). */
  failNextCheckout(userId: number): Promise<void>;
}

// Top-up ids are the provider's reference: each test takes new ones so a provider that keeps
// state between tests (the Stripe stub keeps its PaymentIntents) never answers for another test.
let nextTopUp = 9_000;
// Auto top-ups (what the off-session charge and its state read are for), made just now.
const topUpOf = (userId: number): PayableTopUp & { readonly trigger: 'auto'; readonly createdAt: Date } => ({
  id: ++nextTopUp,
  userId,
  amount: 25,
  currency: 'USD',
  trigger: 'auto',
  createdAt: new Date(),
});

/**
 * What every BillingGateway must do for the top-up use cases: open a checkout per top-up under
 * its own reference, charge a saved card at most once per top-up, report a decline as an
 * outcome (not an error), throw when it cannot act, and read a payment's state without charging.
 */
export function billingGatewayContract(name: string, makeSubject: () => BillingGatewaySubject): void {
  describe(`BillingGateway contract: ${name}`, () => {
    let subject: BillingGatewaySubject;

    beforeEach(() => {
      subject = makeSubject();
    });

    it('opens a checkout page per top-up under distinct, non-empty references, keeping a customer the account has', async () => {
      const fresh: BillingAccount = { ...subject.chargeable(41), customerRef: null, paymentMethodRef: null };
      const first = await subject.gateway.startCheckout(fresh, topUpOf(41));
      const second = await subject.gateway.startCheckout(fresh, topUpOf(41));

      for (const started of [first, second]) {
        expect(started.checkoutUrl).toMatch(/^https?:\/\/\S+$/);
        expect(started.providerReference).toMatch(/\S/);
        if (started.keptCheckoutUrl !== undefined) expect(started.keptCheckoutUrl).toMatch(/^https?:\/\/\S+$/);
      }
      expect(first.providerReference).not.toBe(second.providerReference);

      const known = subject.chargeable(42);
      const again = await subject.gateway.startCheckout(known, topUpOf(42));
      expect([null, known.customerRef]).toContain(again.customerRef);
    });

    it('throws when it cannot open a checkout, instead of answering a page that does not exist', async () => {
      await subject.failNextCheckout(43);
      await expect(subject.gateway.startCheckout(subject.chargeable(43), topUpOf(43))).rejects.toThrow();
    });

    it('charges a saved card once per top-up: a retry answers the same charge', async () => {
      const account = subject.chargeable(44);
      const topUp = topUpOf(44);
      expect(subject.gateway.canChargeOffSession(account)).toBe(true);

      const charged = await subject.gateway.chargeSavedPaymentMethod(account, topUp);
      expect(charged).toEqual({ outcome: { kind: 'succeeded' }, providerReference: expect.stringMatching(/\S/) });
      expect(await subject.gateway.chargeSavedPaymentMethod(account, topUp)).toEqual(charged);

      const other = await subject.gateway.chargeSavedPaymentMethod(account, topUpOf(44));
      expect(other.providerReference).not.toBe(charged.providerReference);
    });

    it('answers a declined card as a failed outcome with a reason, not as an error', async () => {
      const account = await subject.declining(45);
      const declined = await subject.gateway.chargeSavedPaymentMethod(account, topUpOf(45));
      expect(declined.outcome).toEqual({ kind: 'failed', reason: expect.stringMatching(/\S/) });
    });

    it('reads the state of a charge it made, and of a top-up it never charged, without charging', async () => {
      const account = subject.chargeable(46);
      const topUp = topUpOf(46);
      const charged = await subject.gateway.chargeSavedPaymentMethod(account, topUp);
      expect(await subject.gateway.paymentState(topUp, charged.providerReference)).toEqual({ kind: 'succeeded' });

      const never = topUpOf(46);
      expect(await subject.gateway.paymentState(never, null)).toEqual({ kind: 'not_found' });
      expect(await subject.gateway.paymentState(never, null)).toEqual({ kind: 'not_found' });
    });
  });
}
