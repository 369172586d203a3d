import { AutoRecharge, BillingProvider, TopUp, TopUpStatus } from '@voiceplane/domain';
import { Page, PageRequest } from '../common';
import { ProviderBillingEvent } from './ports';

export interface TopUpRepository {
  /** The id of a top-up about to be created: the provider is told it before anything is stored. */
  reserveId(): Promise<number>;
  insert(topUp: TopUp, providerReference: string | null): Promise<void>;
  find(userId: number, id: number): Promise<TopUp | null>;
  /** The top-up the provider knows by this reference; any account's. */
  findByProviderReference(provider: BillingProvider, providerReference: string): Promise<TopUp | null>;
  list(userId: number, page: PageRequest, status?: TopUpStatus): Promise<Page<TopUp>>;
  /** Locks the top-up until the surrounding transaction ends; any account's. */
  lock(id: number): Promise<TopUp | null>;
  /** Stores a settled top-up (status, failure reason, completion time). */
  saveSettled(topUp: TopUp): Promise<void>;
  setProviderReference(id: number, providerReference: string): Promise<void>;
  /**
   * Up to `limit` top-ups a reconciliation looks at (any pending since `pendingBefore` or earlier,
   * or an auto one failed on a lost answer), not marked unreconcilable and not checked after `checkedBefore`.
   */
  awaitingReconciliation(pendingBefore: Date, checkedBefore: Date, limit: number): Promise<ReconcilableTopUp[]>;
  /** Records a reconciliation check; `unreconcilable`: the reason an operator must look, listed until then. */
  markChecked(id: number, at: Date, unreconcilable: string | null): Promise<void>;
  /** Every top-up marked unreconcilable, oldest first (operators). */
  listUnreconcilable(): Promise<ReconcilableTopUp[]>;
}

/** A top-up as reconciliation sees it: with the provider's reference and the reason it is left to an operator. */
export interface ReconcilableTopUp {
  readonly topUp: TopUp;
  readonly providerReference: string | null;
  readonly unreconcilable: string | null;
  readonly checkedAt: Date | null;
}

export interface AutoRechargeRepository {
  /** The account's auto-recharge; the defaults when it never changed them. */
  find(userId: number): Promise<AutoRecharge>;
  /** As `find`, its row locked until the surrounding transaction ends (the defaults, unlocked, when it has none yet). */
  lock(userId: number): Promise<AutoRecharge>;
  save(recharge: AutoRecharge, at: Date): Promise<void>;
}

/** What the account has at its billing provider. */
export interface BillingProfile {
  readonly customerRef: string | null;
  readonly paymentMethodRef: string | null;
}

export interface BillingProfileRepository {
  find(userId: number, provider: BillingProvider): Promise<BillingProfile>;
  /** Keeps the non-null values given; a null leaves the stored value unchanged. */
  remember(userId: number, provider: BillingProvider, profile: BillingProfile, at: Date): Promise<void>;
}

export interface StoredBillingEvent extends ProviderBillingEvent {
  readonly inboxId: number;
  readonly provider: BillingProvider;
  readonly processedAt: Date | null;
}

/** Provider events, each kept once per (provider, event id). */
export interface BillingInbox {
  /** The new inbox id; null when the event was already stored (a redelivery). */
  store(provider: BillingProvider, event: ProviderBillingEvent, receivedAt: Date): Promise<number | null>;
  find(inboxId: number): Promise<StoredBillingEvent | null>;
  markProcessed(inboxId: number, at: Date): Promise<void>;
  /** Deletes up to `limit` events processed before `cutoff`; answers how many went. */
  purgeProcessedBefore(cutoff: Date, limit: number): Promise<number>;
}

/** The sandbox provider's armed `billing_charge` faults, durable so every process sees them. */
export interface ArmedBillingFaults {
  /** The next `count` checkouts or auto charges of the account fail; replaces what was left. */
  arm(userId: number, count: number): Promise<number>;
  /** Uses up one armed fault; false when none is left. */
  claim(userId: number): Promise<boolean>;
}
