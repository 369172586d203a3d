import { judgeHits, LimitVerdict, tightest, Window, windowAt } from '@voiceplane/domain';
import { Clock } from '../ports';
import { RateLimitStore } from '../ports';
import { QuotaLeases } from './quota-leases';

export interface Bucket {
  /** Unique per bucket family and subject, e.g. `general:key:12`. */
  readonly key: string;
  readonly limit: number;
  readonly windowSeconds: number;
}

export type BucketVerdict = LimitVerdict & { readonly windowSeconds: number; readonly key: string };

export interface RateDecision {
  readonly allowed: boolean;
  /** The bucket the headers describe: the tightest. */
  readonly reported: BucketVerdict;
  /**
   * When refused: seconds until every exhausted bucket has reset. A bucket this request used up
   * refuses the next one even though it allowed this one, so a shorter wait would only earn another 429.
   */
  readonly retryAfterSeconds: number;
}

/**
 * Fixed-window limits shared by every instance. Each instance leases blocks of a window's quota
 * from the shared store and spends them locally (QuotaLeases), so a busy bucket costs one store
 * write per block, not per request, and the instances together never admit more than the limit.
 */
export class RateLimiter {
  private readonly leases: QuotaLeases;

  constructor(
    private readonly store: RateLimitStore,
    private readonly clock: Clock,
  ) {
    this.leases = new QuotaLeases(store);
  }

  /**
   * Hits counted in the bucket's current window, without counting one (a preflight's view of a
   * quota): the shared total less what this instance leased and has not spent. Quota other
   * instances hold unspent still counts, which errs towards reporting a quota used up.
   */
  async counted(bucket: Bucket): Promise<number> {
    const key = `${bucket.key}:${bucket.windowSeconds}`;
    const window = windowAt(this.clock.now(), bucket.windowSeconds);
    return (await this.store.hit(key, window.start, expiryOf(window), 0)) - this.leases.unspent(key, window);
  }

  async consume(buckets: readonly Bucket[]): Promise<RateDecision> {
    const now = this.clock.now();
    // Each bucket is taken in order, from the lease held when it can be, from the store when not;
    // only the latter is waited for.
    let waits = false;
    const taken = buckets.map((bucket): BucketVerdict | Promise<BucketVerdict> => {
      const window = windowAt(now, bucket.windowSeconds);
      const key = `${bucket.key}:${bucket.windowSeconds}`;
      const verdict = (hits: number): BucketVerdict => ({
        ...judgeHits(hits, bucket.limit, window, now),
        windowSeconds: bucket.windowSeconds,
        key: bucket.key,
      });
      const held = this.leases.takeHeld(key, bucket.limit, window, expiryOf(window), now);
      if (held !== undefined) return verdict(held);
      waits = true;
      return this.leases.take(key, bucket.limit, window, expiryOf(window), now).then(verdict);
    });
    const verdicts = waits ? await Promise.all(taken) : (taken as BucketVerdict[]);
    const reported = tightest(verdicts);
    if (verdicts.every((v) => v.allowed)) return { allowed: true, reported, retryAfterSeconds: 0 };
    const exhausted = verdicts.filter((v) => v.remaining === 0);
    return { allowed: false, reported, retryAfterSeconds: Math.max(...exhausted.map((v) => v.retryAfterSeconds)) };
  }

  /** True while leases are kept: only then is there quota `returnIdle` may hand back. */
  get holdsLeases(): boolean {
    return this.leases.holding;
  }

  /** `listener` runs whenever a lease is first kept (the first request of a bucket's window). */
  whenLeasing(listener: () => void): void {
    this.leases.whenLeasing(listener);
  }

  /** Hands back quota leased but left unspent for a while (or all of it, when stopping). */
  returnIdle(all = false): Promise<void> {
    return this.leases.returnIdle(this.clock.now(), all);
  }
}

/** Rows outlive their window a little so a slow clock on another instance still finds them. */
const expiryOf = (window: Window): Date => new Date(window.resetAt.getTime() + 60_000);
