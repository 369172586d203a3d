import {
  AttemptError,
  DeliveryAttempt,
  DeliverySource,
  DeliverySourceType,
  DeliveryStatus,
  DeliverySubject,
  Result,
  WebhookDelivery,
} from '@voiceplane/domain';
import { NewJob } from '../events';
import { SigningSecret } from '../ports';
import { NewOutboxEvent } from '../ports';
import { Page, PageRequest } from '../common';

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
  /** Raised with the delivery: written to the outbox atomically with it (one statement on PostgreSQL). */
  readonly events?: readonly NewOutboxEvent[];
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

/** What settling an attempt decided against the locked row. */
export interface SettlementDecision {
  readonly settlement: DeliverySettlement;
  /** When it was decided (`updated_at`). */
  readonly at: Date;
  /** The delivery's next attempt, scheduled with the settlement; none when it settled for good. */
  readonly retry?: NewJob;
}

/** What a replay decided about the caller's locked delivery. */
export interface DeliveryRestart {
  /** Attempts allowed in the new round. */
  readonly maxAttempts: number;
  /** When it restarted: the delivery is due then (`next_attempt_at`, `updated_at`). */
  readonly at: Date;
  /** Raised by the restart; written to the outbox after the delivery, in this order. */
  readonly events?: readonly NewOutboxEvent[];
}

export type DeliveryNotFound = { readonly code: 'delivery_not_found' };

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
  /**
   * Writes an attempt's outcome judged against the row as it is now: in one transaction (the
   * caller's, when there is one) locks the row, hands its state to `decide`, then writes the
   * settlement with its attempt, releases the lease and schedules the retry it returned. A refusal
   * writes nothing.
   */
  settleLocked<E>(
    id: string,
    decide: (current: DeliveryForSettlement) => Promise<Result<SettlementDecision, E>>,
  ): Promise<Result<void, E | DeliveryNotFound>>;
  /**
   * A settlement written in one statement, without a lock, that applies only while the row is exactly `expected` (same lease,
   * status and counters); false, and nothing written, when it is not.
   */
  settleIfUnchanged(
    id: string,
    expected: DeliveryForSettlement,
    settlement: DeliverySettlement,
    now: Date,
  ): Promise<boolean>;
  /** Moves matching pending deliveries to `canceled`; returns their ids. */
  cancelPending(criteria: CancelCriteria, now: Date): Promise<string[]>;
  /**
   * Back to `pending`, due at once, with a fresh round: in one transaction (the caller's, when there
   * is one) locks the user's delivery, hands it to `decide`, then restarts it and writes the events
   * it returned. The lease stays. A refusal, or another user's delivery, writes nothing.
   */
  restartOwned<E>(
    userId: number,
    id: string,
    decide: (delivery: WebhookDelivery) => Promise<Result<DeliveryRestart, E>>,
  ): Promise<Result<WebhookDelivery, E | DeliveryNotFound>>;
  /** Deletes settled deliveries (and their attempts) last changed before `cutoff`; returns how many. */
  purgeSettledBefore(cutoff: Date, limit: number): Promise<number>;
}
