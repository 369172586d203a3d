import { StoredIdempotentRequest } from '@voiceplane/domain';
import { IdempotencyStore } from '@voiceplane/application';

type Entry = StoredIdempotentRequest & { readonly expiresAt: Date };

/** Claims by scope in memory. */
export class InMemoryIdempotencyStore implements IdempotencyStore {
  private readonly entries = new Map<string, Entry>();

  async claim(scope: string, fingerprint: string, now: Date, expiresAt: Date): Promise<StoredIdempotentRequest | null> {
    const stored = this.entries.get(scope);
    // An expired claim is replaced as if it never existed.
    if (!stored || stored.expiresAt < now) {
      this.entries.set(scope, { fingerprint, state: 'in_flight', responseStatus: null, responseBody: null, expiresAt: new Date(expiresAt) });
      return null;
    }
    const { expiresAt: _, ...request } = stored;
    return request;
  }

  async complete(scope: string, status: number, body: string): Promise<void> {
    const stored = this.entries.get(scope);
    if (stored) this.entries.set(scope, { ...stored, state: 'done', responseStatus: status, responseBody: body });
  }

  async release(scope: string): Promise<void> {
    this.entries.delete(scope);
  }
}
