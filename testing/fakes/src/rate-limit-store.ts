import { QuotaLease, QuotaLeaseRequest, RateLimitStore } from '@voiceplane/application';

/** Counters per bucket and window start, as the PostgreSQL store keeps them. */
export class InMemoryRateLimitStore implements RateLimitStore {
  private readonly counters = new Map<string, number>();

  async hit(bucketKey: string, windowStart: Date, _expiresAt: Date, cost = 1): Promise<number> {
    return this.add(bucketKey, windowStart, cost);
  }

  async lease(requests: readonly QuotaLeaseRequest[]): Promise<QuotaLease[]> {
    return requests.map(({ bucketKey, windowStart, limit, want }) => {
      const before = this.counters.get(counterOf(bucketKey, windowStart)) ?? 0;
      const granted = Math.min(Math.max(0, want), Math.max(0, limit - before));
      return { granted, total: this.add(bucketKey, windowStart, granted) };
    });
  }

  async giveBack(bucketKey: string, windowStart: Date, count: number): Promise<void> {
    const counter = counterOf(bucketKey, windowStart);
    if (this.counters.has(counter)) this.counters.set(counter, Math.max(0, this.counters.get(counter)! - count));
  }

  private add(bucketKey: string, windowStart: Date, cost: number): number {
    const counter = counterOf(bucketKey, windowStart);
    const hits = (this.counters.get(counter) ?? 0) + cost;
    this.counters.set(counter, hits);
    return hits;
  }
}

const counterOf = (bucketKey: string, windowStart: Date): string => JSON.stringify([bucketKey, windowStart.getTime()]);
