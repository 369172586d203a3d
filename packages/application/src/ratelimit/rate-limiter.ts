import { judgeHits, LimitVerdict, tightest, windowAt } from '@voiceplane/domain';
import { Clock } from '../ports/clock';
import { RateLimitStore } from '../ports/rate-limit-store';

export interface Bucket {
  /** Unique per bucket family and subject, e.g. `general:key:12`. */
  readonly key: string;
  readonly limit: number;
  readonly windowSeconds: number;
}

export type BucketVerdict = LimitVerdict & { readonly windowSeconds: number; readonly key: string };

export interface RateDecision {
  readonly allowed: boolean;
  /** The bucket the headers describe: the tightest (CONTRACT §1.8). */
  readonly reported: BucketVerdict;
  /**
   * When refused: seconds until every exhausted bucket has reset. A bucket this request used up
   * refuses the next one even though it allowed this one, so a shorter wait would only earn another 429.
   */
  readonly retryAfterSeconds: number;
}

/** Fixed-window counters in the shared store, so every instance enforces the same limit. */
export class RateLimiter {
  constructor(private readonly store: RateLimitStore, private readonly clock: Clock) {}

  /** Hits counted in the bucket's current window, without counting one (a preflight's view of a quota). */
  async counted(bucket: Bucket): Promise<number> {
    const window = windowAt(this.clock.now(), bucket.windowSeconds);
    return this.store.hit(`${bucket.key}:${bucket.windowSeconds}`, window.start, new Date(window.resetAt.getTime() + 60_000), 0);
  }

  async consume(buckets: readonly Bucket[]): Promise<RateDecision> {
    const now = this.clock.now();
    const verdicts = await Promise.all(buckets.map(async (bucket): Promise<BucketVerdict> => {
      const window = windowAt(now, bucket.windowSeconds);
      // Rows outlive their window a little so a slow clock on another instance still finds them.
      const expiresAt = new Date(window.resetAt.getTime() + 60_000);
      const hits = await this.store.hit(`${bucket.key}:${bucket.windowSeconds}`, window.start, expiresAt);
      return { ...judgeHits(hits, bucket.limit, window, now), windowSeconds: bucket.windowSeconds, key: bucket.key };
    }));
    const reported = tightest(verdicts);
    if (verdicts.every((v) => v.allowed)) return { allowed: true, reported, retryAfterSeconds: 0 };
    const exhausted = verdicts.filter((v) => v.remaining === 0);
    return { allowed: false, reported, retryAfterSeconds: Math.max(...exhausted.map((v) => v.retryAfterSeconds)) };
  }
}
