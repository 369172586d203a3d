import { DUE_LEAD_STATUSES, LeadStatus } from './campaign';
import { LeadAttemptOutcome } from './attempt-outcome';

/** One contact of a lead group: the primary first, then its secondary contacts in stored order. */
export interface GroupContact {
  readonly id: number;
  readonly status: LeadStatus;
  readonly attempts: number;
}

/** A primary lead and its secondary contacts, called in rounds. */
export interface LeadGroup {
  readonly contacts: readonly GroupContact[];
  /** Rounds that ended without success. */
  readonly roundsDone: number;
}

export interface RoundRules {
  readonly maxRetries: number;
  readonly retryIntervalMinutes: number;
}

/** What an attempt outcome changes in its group; contacts not named keep their status. */
export interface GroupChange {
  readonly statuses: ReadonlyMap<number, LeadStatus>;
  readonly attempts: ReadonlyMap<number, number>;
  readonly roundsDone: number;
  /** When the next round is due; null when no round follows (or the round goes on). */
  readonly nextAttemptAt: Date | null;
  /** The round ended and none follows, or a contact succeeded: nothing of the group is pending. */
  readonly finished: boolean;
}

/** Contacts a user closed by hand stay as they are. */
const CLOSED: readonly LeadStatus[] = ['completed', 'reached-max-retries', 'blacklisted'];

/**
 * Applies the outcome of the call to `contactId`. Success completes the whole group. A failure with
 * another contact of the round still due leaves that contact due at once; a failure on the round's
 * last contact ends the round: another round after `retryInterval` while rounds remain
 * (1 + `maxRetries` in all), else every open contact has reached its maximum.
 */
export function applyAttempt(
  group: LeadGroup,
  contactId: number,
  outcome: LeadAttemptOutcome,
  endedAt: Date,
  rules: RoundRules,
): GroupChange {
  const statuses = new Map<number, LeadStatus>();
  const attempts = new Map<number, number>();
  const called = group.contacts.find((c) => c.id === contactId);
  if (called) attempts.set(called.id, called.attempts + 1);
  const open = group.contacts.filter((c) => !CLOSED.includes(c.status) || c.id === contactId);
  if (outcome === 'success') {
    for (const c of open) statuses.set(c.id, 'completed');
    return { statuses, attempts, roundsDone: group.roundsDone, nextAttemptAt: null, finished: true };
  }
  const stillDue = group.contacts.some((c) => c.id !== contactId && DUE_LEAD_STATUSES.includes(c.status));
  if (stillDue) {
    statuses.set(contactId, 'rescheduled');
    return { statuses, attempts, roundsDone: group.roundsDone, nextAttemptAt: null, finished: false };
  }
  const roundsDone = group.roundsDone + 1;
  if (roundsDone < 1 + rules.maxRetries) {
    for (const c of open) statuses.set(c.id, 'rescheduled');
    return {
      statuses,
      attempts,
      roundsDone,
      nextAttemptAt: new Date(endedAt.getTime() + rules.retryIntervalMinutes * 60_000),
      finished: false,
    };
  }
  for (const c of open) statuses.set(c.id, 'reached-max-retries');
  return { statuses, attempts, roundsDone, nextAttemptAt: null, finished: true };
}

/** The contact of the group to call next: the first due one in order, none while one is being called. */
export function nextContact(group: LeadGroup): GroupContact | null {
  if (group.contacts.some((c) => c.status === 'processing')) return null;
  return group.contacts.find((c) => DUE_LEAD_STATUSES.includes(c.status)) ?? null;
}

/**
 * A due contact whose number is on the do-not-call list is `blacklisted` without a call and
 * without an attempt; the round goes on as if its attempt had failed (the next contact is due, or
 * the round ends), so its group never waits on it.
 */
export function blacklistContact(group: LeadGroup, contactId: number, at: Date, rules: RoundRules): GroupChange {
  const failed = applyAttempt(group, contactId, 'failed', at, rules);
  const statuses = new Map(failed.statuses);
  statuses.set(contactId, 'blacklisted');
  const pending = group.contacts.some((c) => {
    const status = statuses.get(c.id) ?? c.status;
    return !CLOSED.includes(status);
  });
  return {
    ...failed,
    statuses,
    attempts: new Map(),
    nextAttemptAt: pending ? failed.nextAttemptAt : null,
    finished: !pending,
  };
}
