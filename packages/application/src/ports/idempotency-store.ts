import { StoredIdempotentRequest } from '@voiceplane/domain';

export interface IdempotencyClaim {
  readonly now: Date;
  /** End of retention: a claim that expired before `now` counts as never made. */
  readonly expiresAt: Date;
  /**
   * An in-flight claim whose lease ended before `now` counts as never made too: its request died
   * without answering. The running request renews the lease.
   */
  readonly leaseUntil: Date;
}

/**
 * The answer to a request's outcome, ready to store (its body sealed), or null when it is not one
 * to replay. Asked inside the transaction that concludes the request's use case.
 */
export type AnswerOfOutcome = (outcome: unknown) => Promise<{ readonly status: number; readonly body: string } | null>;

export interface IdempotencyStore {
  /** Claims the scope for a first request; when already claimed returns what is stored instead. */
  claim(scope: string, fingerprint: string, claim: IdempotencyClaim): Promise<StoredIdempotentRequest | null>;
  /** Extends the lease of an in-flight claim whose request is still running. */
  renew(scope: string, leaseUntil: Date): Promise<void>;
  complete(scope: string, status: number, body: string): Promise<void>;
  /** Forgets a claim whose request ended in a way that must not be replayed (5xx, 409, 429). */
  release(scope: string): Promise<void>;
  /**
   * Runs the claimed request so that every transaction it commits also marks the claim committed,
   * atomically with its effect: a claim whose request died after an effect committed (before its
   * answer was stored) is never processed again, whatever its lease. The transaction that concludes
   * the use case (`concludes`) stores `answerOf` its result instead, in the same commit, so a retry
   * after a crash gets that answer.
   */
  bindEffects<T>(scope: string, run: () => T, answerOf?: AnswerOfOutcome): T;
}
