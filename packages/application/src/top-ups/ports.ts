import { BillingProvider, ProviderPaymentState, TopUp, TopUpOutcome, TopUpTrigger } from '@voiceplane/domain';

/** Who pays, as the billing provider needs to know them. */
export interface BillingAccount {
  readonly userId: number;
  readonly email: string;
  readonly name: string;
  /** The account's customer at the provider, once one exists (created on first use and kept). */
  readonly customerRef: string | null;
  /** The card saved by a paid checkout, charged off-session by auto-recharge. */
  readonly paymentMethodRef: string | null;
}

/** What the provider is asked to charge: the top-up's id (its reference at the provider) and amount. */
export type PayableTopUp = Pick<TopUp, 'id' | 'userId' | 'amount' | 'currency'>;

/** A top-up the reconciliation asks about: which kind of payment to look for, and how old it is. */
export type ReconciledTopUp = PayableTopUp & Pick<TopUp, 'trigger' | 'createdAt'>;

/** A checkout page the provider opened for a top-up. */
export interface StartedCheckout {
  readonly checkoutUrl: string;
  /**
   * What later reads show instead, when `checkoutUrl` carries a secret that is shown once (the sandbox's
   * one-time token); absent: `checkoutUrl` itself is kept.
   */
  readonly keptCheckoutUrl?: string;
  /** The provider's id of the checkout (Stripe: the Checkout Session). */
  readonly providerReference: string;
  /** The account's customer at the provider, to keep (null: the provider has none). */
  readonly customerRef: string | null;
}

/** What an off-session charge answered at once; `outcome` null: the provider will tell later (its ingress). */
export interface OffSessionCharge {
  readonly outcome: TopUpOutcome | null;
  readonly providerReference: string | null;
}

/**
 * The billing provider: opens a checkout page for a top-up and charges
 * the card a checkout saved. A method that cannot reach the provider throws.
 */
export interface BillingGateway {
  readonly provider: BillingProvider;
  startCheckout(account: BillingAccount, topUp: PayableTopUp): Promise<StartedCheckout>;
  chargeSavedPaymentMethod(account: BillingAccount, topUp: PayableTopUp): Promise<OffSessionCharge>;
  /** Whether auto-recharge could charge this account now (`payment_method_ready`). */
  canChargeOffSession(account: BillingAccount): boolean;
  /**
   * The state of a payment whose answer was lost: an off-session charge by the provider's
   * reference when one was kept, else found by the top-up id; a checkout by its page's reference.
   * Read-only: it never charges. Throws when the provider cannot be reached.
   */
  paymentState(topUp: ReconciledTopUp, providerReference: string | null): Promise<ProviderPaymentState>;
}

/** One event as the provider sent it, its signature already checked. */
export interface ProviderBillingEvent {
  /** The provider's event id: the inbox keeps each once. */
  readonly id: string;
  readonly type: string;
  readonly payload: unknown;
}

/** What a provider event says about one of our top-ups. */
export interface TopUpReport {
  readonly topUpId: number;
  /** The kind of top-up the event can speak for (a checkout's events never settle an `auto` top-up). */
  readonly trigger: TopUpTrigger;
  readonly outcome: TopUpOutcome;
  /** The card the payment saved for later off-session charges, when the event names one. */
  readonly paymentMethodRef: string | null;
  readonly customerRef: string | null;
}

/** The provider's side of its webhook ingress. */
export interface BillingEventSource {
  readonly provider: BillingProvider;
  /** The event, when `signature` proves the provider sent exactly `rawBody` recently; null otherwise. */
  verify(rawBody: Buffer, signature: string | null): ProviderBillingEvent | null;
  /** What the event means for a top-up; null for events voiceplane does not act on. */
  interpret(event: ProviderBillingEvent): Promise<TopUpReport | null>;
}
