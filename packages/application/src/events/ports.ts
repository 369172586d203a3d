import { BusHandler, BusMessage, SubscriptionOptions } from '../ports';

/** The shape of pino's methods, so the apps can pass their logger unchanged. */
export interface WorkLogger {
  info(details: Record<string, unknown>, message: string): void;
  warn(details: Record<string, unknown>, message: string): void;
  error(details: Record<string, unknown>, message: string): void;
}

/** The relay's side of the outbox: committed events not yet on the bus. */
export interface UnpublishedEvents {
  /**
   * Inside a transaction: locks up to `limit` unpublished events, oldest first, skipping any that
   * another relay holds, so several relays never publish the same batch at the same time, and
   * marks them published at `at` (one statement). The caller publishes them before it commits and
   * rolls back when the bus does not accept them, which leaves them unpublished.
   */
  claimBatch(limit: number, at: Date, options?: { readonly unsettled?: boolean }): Promise<BusMessage[]>;
  /**
   * With `unsettled` at claim time the events are also marked unsettled: published to a bus that
   * loses them if the process dies. `settled` clears the mark once their consumers are done.
   */
  settled(ids: readonly string[]): Promise<void>;
  /** Makes events unsettled since before `before` unpublished again, so they are published once more; returns how many. */
  reopenUnsettled(before: Date): Promise<number>;
}

/**
 * What consumers have already handled, by event id. Recording it in the same transaction as the
 * handler's effects makes a redelivered event a no-op.
 */
export interface ProcessedEvents {
  /** False when `consumer` had already recorded `eventId` (nothing is written then). */
  record(consumer: string, eventId: string): Promise<boolean>;
}

/** A durable bus consumer a capability contributes; the event backbone subscribes it at start. */
export interface EventConsumer {
  readonly topicPattern: string;
  readonly handle: BusHandler;
  /** `consumer` is the durable queue name: unique and stable across releases. */
  readonly options: SubscriptionOptions;
}

/** Delayed work, durable in the database. */
export interface NewJob {
  /** Selects the handler, e.g. `webhook.delivery.attempt`. */
  readonly kind: string;
  readonly payload: unknown;
  readonly runAt: Date;
  /**
   * At most one job exists per key: scheduling a key again replaces its time and payload (and
   * releases any claim on it), so "the next X of Y" stays a single row.
   */
  readonly key?: string;
}

/** Used by application services, inside their transactions. */
export interface JobScheduler {
  schedule(job: NewJob): Promise<void>;
  cancel(keys: readonly string[]): Promise<void>;
}

export interface ClaimedJob {
  readonly id: number;
  readonly kind: string;
  readonly key: string | null;
  readonly payload: unknown;
  /** Claims so far, this one included (reset when the key is scheduled again). */
  readonly attempts: number;
  readonly leaseToken: string;
}

/** The runner's side of the job table. */
export interface JobQueue {
  /**
   * Claims up to `limit` jobs due at `now` that nobody holds (or whose holder's lease ran out),
   * skipping rows other runners are claiming at this moment.
   */
  claimDue(now: Date, limit: number, leaseUntil: Date, leaseToken: string): Promise<ClaimedJob[]>;
  /**
   * The earliest moment a claim could take a job (its due time, or when the lease on it runs out if
   * that is later), past or future; null when no job waits. Buried jobs never count. The runner
   * sleeps until then instead of polling.
   */
  nextDueAt(): Promise<Date | null>;
  /** Deletes the job, unless it was scheduled again meanwhile (the lease token no longer matches). */
  complete(job: ClaimedJob): Promise<void>;
  /** Releases the job to run again at `runAt`, unless it was scheduled again meanwhile. */
  retry(job: ClaimedJob, runAt: Date, error: string): Promise<void>;
  /** Stops retrying the job; it stays in the table for inspection. */
  bury(job: ClaimedJob, at: Date, error: string): Promise<void>;
}

/** Runs jobs of one kind. Throwing means "try again later" (with backoff). */
export interface JobHandler {
  readonly kind: string;
  handle(job: ClaimedJob): Promise<void>;
}
