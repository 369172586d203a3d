import type { AccountEvent } from '@voiceplane/domain';

/** A stream's place in its account's limit, held by the instance serving it. */
export interface StreamLease {
  readonly id: string;
  readonly userId: number;
  readonly instance: string;
}

/**
 * What the api instances share about the account event stream: the leases of the open streams
 * (the per-account limit over every instance) and the backlog a reader resumes from on any of them.
 */
export interface AccountEventStore {
  /**
   * Takes `lease` until `until` when the account holds fewer than `max` leases that have not lapsed
   * at `now`; false when it holds `max` already. Atomic across instances.
   */
  takeLease(lease: StreamLease, max: number, now: Date, until: Date): Promise<boolean>;
  /** Moves the instance's unlapsed leases to `until`; answers the ids renewed (a lapsed one is gone for good). */
  renewLeases(instance: string, now: Date, until: Date): Promise<string[]>;
  releaseLease(id: string): Promise<void>;
  releaseInstance(instance: string): Promise<void>;
  /** Stores the event once, whichever instance writes it first. */
  append(event: AccountEvent): Promise<void>;
  /**
   * The account's events stored after `lastEventId`, oldest first, at most `max`; null when that id
   * is not held for the account (never was, trimmed, or more than `max` followed it).
   */
  after(userId: number, lastEventId: string, max: number): Promise<AccountEvent[] | null>;
  /** Drops events older than `before`, and each account's events past its newest `perAccount`. */
  trim(before: Date, perAccount: number): Promise<void>;
}
