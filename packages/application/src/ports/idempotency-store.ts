import { StoredIdempotentRequest } from '@voiceplane/domain';

export interface IdempotencyStore {
  /**
   * Claims the scope for a first request; when already claimed returns what is stored instead.
   * A claim that expired before `now` counts as never made.
   */
  claim(scope: string, fingerprint: string, now: Date, expiresAt: Date): Promise<StoredIdempotentRequest | null>;
  complete(scope: string, status: number, body: string): Promise<void>;
  /** Forgets a claim whose request ended in a way that must not be replayed (5xx, 409, 429). */
  release(scope: string): Promise<void>;
}
