import { RateLimitStore } from '@voiceplane/application';

/** Counters per bucket and window start, as the PostgreSQL store keeps them. */
export class InMemoryRateLimitStore implements RateLimitStore {
  private readonly counters = new Map<string, number>();

  async hit(bucketKey: string, windowStart: Date, _expiresAt: Date, cost = 1): Promise<number> {
    const counter = JSON.stringify([bucketKey, windowStart.getTime()]);
    const hits = (this.counters.get(counter) ?? 0) + cost;
    this.counters.set(counter, hits);
    return hits;
  }
}
