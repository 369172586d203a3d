import { AttemptError, DeliveryAttempt, DeliverySource, DeliverySourceType, DeliveryStatus, DeliverySubject, WebhookDelivery } from '@voiceplane/domain';
import { SigningSecret } from '../ports/accounts';
import { Page, PageRequest } from '../shared/page';

export interface NewDelivery {
  readonly id: string;
  readonly userId: number;
  readonly eventType: string;
  readonly webhookId: string;
  readonly targetUrl: string;
  readonly body: string;
  readonly source: DeliverySource;
  readonly subject: DeliverySubject | null;
  readonly requestId: string | null;
  /** Attempts allowed in the first round (1 for a test ping, else 8). */
  readonly maxAttempts: number;
  readonly now: Date;
  /** Created already claimed by the caller, who attempts it at once (test pings). */
  readonly lease?: DeliveryLease;
}

export interface DeliveryLease {
  readonly token: string;
  readonly until: Date;
}

export interface DeliveryFilter {
  readonly status?: DeliveryStatus;
  readonly eventType?: string;
  readonly sourceType?: DeliverySourceType;
  readonly sourceId?: number;
}

/** The row as an attempt's outcome is judged against: as claimed, or as locked when it is written. */
export interface DeliveryForSettlement {
  readonly status: DeliveryStatus;
  readonly attemptsCount: number;
  readonly roundAttempts: number;
  readonly maxAttempts: number;
  readonly leaseToken: string | null;
}

/** A delivery one attempt holds the lease of, and the row state it was taken in. */
export interface HeldDelivery {
  readonly delivery: WebhookDelivery;
  readonly state: DeliveryForSettlement;
}

/** Why a delivery could not be claimed for an attempt now. */
export type DeliveryClaim =
  /** With the owner's signing secret as it is at the claim (null if the account has none). */
  | { readonly kind: 'claimed'; readonly held: HeldDelivery; readonly secret: SigningSecret | null }
  /** Another attempt holds it until then. */
  | { readonly kind: 'busy'; readonly until: Date }
  /** Pending, but its next attempt is later. */
  | { readonly kind: 'not_due'; readonly at: Date }
  /** Missing, or no longer pending: nothing to do. */
  | { readonly kind: 'settled' };

export interface DeliverySettlement {
  readonly status: DeliveryStatus;
  readonly nextAttemptAt: Date | null;
  readonly roundAttempts: number;
  readonly attempt: DeliveryAttempt;
  /** Null when the attempt succeeded. */
  readonly lastError: AttemptError | null;
}

export interface CancelCriteria {
  readonly userId: number;
  readonly source: DeliverySource;
  readonly eventTypes: readonly string[];
  /**
   * Only deliveries created at or before this instant: the switch-off event is consumed
   * asynchronously, and a delivery raised after the webhook was enabled again must survive it.
   */
  readonly createdUpTo: Date;
}

export interface WebhookDeliveryRepository {
  insert(delivery: NewDelivery): Promise<WebhookDelivery>;
  /** Null when missing or another user's. */
  find(userId: number, id: string): Promise<WebhookDelivery | null>;
  attempts(deliveryId: string): Promise<DeliveryAttempt[]>;
  /** Newest first. */
  list(userId: number, filter: DeliveryFilter, page: PageRequest): Promise<Page<WebhookDelivery>>;
  /** Pending deliveries due before `dueBefore` that no attempt holds at `now`, longest overdue first. */
  overdue(dueBefore: Date, now: Date, limit: number): Promise<string[]>;
  /** Takes the delivery for one attempt if it is pending, due at `now` and not held by another attempt. */
  claim(id: string, now: Date, lease: DeliveryLease): Promise<DeliveryClaim>;
  /** Locks the row for the rest of the transaction; null when it is gone. */
  lockForSettlement(id: string): Promise<DeliveryForSettlement | null>;
  /** Writes an attempt and the delivery's new state, and releases the lease. */
  settle(id: string, settlement: DeliverySettlement, now: Date): Promise<void>;
  /**
   * `settle` in one statement that applies only while the row is exactly `expected` (same lease,
   * status and counters); false, and nothing written, when it is not.
   */
  settleIfUnchanged(id: string, expected: DeliveryForSettlement, settlement: DeliverySettlement, now: Date): Promise<boolean>;
  /** Moves matching pending deliveries to `canceled`; returns their ids. */
  cancelPending(criteria: CancelCriteria, now: Date): Promise<string[]>;
  /** Locks the user's delivery for the rest of the transaction; null when missing or another user's. */
  lockForReplay(userId: number, id: string): Promise<WebhookDelivery | null>;
  /** Back to `pending`, due at `now`, with a fresh round of `maxAttempts`. */
  restart(id: string, maxAttempts: number, now: Date): Promise<WebhookDelivery>;
  /** Deletes settled deliveries (and their attempts) last changed before `cutoff`; returns how many. */
  purgeSettledBefore(cutoff: Date, limit: number): Promise<number>;
}
