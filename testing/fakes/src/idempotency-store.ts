import { StoredIdempotentRequest } from '@voiceplane/domain';
import { AnswerOfOutcome, IdempotencyClaim, IdempotencyStore } from '@voiceplane/application';

type Entry = StoredIdempotentRequest & { readonly expiresAt: Date; readonly leaseUntil: Date | null };

/** Claims by scope in memory. */
export class InMemoryIdempotencyStore implements IdempotencyStore {
  private readonly entries = new Map<string, Entry>();

  async claim(scope: string, fingerprint: string, claim: IdempotencyClaim): Promise<StoredIdempotentRequest | null> {
    const stored = this.entries.get(scope);
    // An expired claim, or an in-flight one whose lease lapsed, is replaced as if it never existed.
    const lapsed = stored?.state === 'in_flight' && (stored.leaseUntil === null || stored.leaseUntil < claim.now);
    if (!stored || stored.expiresAt < claim.now || lapsed) {
      this.entries.set(scope, {
        fingerprint,
        state: 'in_flight',
        responseStatus: null,
        responseBody: null,
        expiresAt: new Date(claim.expiresAt),
        leaseUntil: new Date(claim.leaseUntil),
      });
      return null;
    }
    const { expiresAt: _e, leaseUntil: _l, ...request } = stored;
    return request;
  }

  async renew(scope: string, leaseUntil: Date): Promise<void> {
    const stored = this.entries.get(scope);
    if (stored?.state === 'in_flight') this.entries.set(scope, { ...stored, leaseUntil: new Date(leaseUntil) });
  }

  async complete(scope: string, status: number, body: string): Promise<void> {
    const stored = this.entries.get(scope);
    if (stored)
      this.entries.set(scope, {
        ...stored,
        state: 'done',
        responseStatus: status,
        responseBody: body,
        leaseUntil: null,
      });
  }

  async release(scope: string): Promise<void> {
    this.entries.delete(scope);
  }

  /** Memory has no transactions to bind to: the request just runs. */
  bindEffects<T>(_scope: string, run: () => T, _answerOf?: AnswerOfOutcome): T {
    return run();
  }
}
