import { Window } from '@voiceplane/domain';
import { QuotaLease, QuotaLeaseRequest, RateLimitStore } from '../ports';

/** One instance's share of one bucket's window. */
interface Lease {
  readonly window: Window;
  readonly expiresAt: Date;
  /** Leased from the store and not yet spent by this instance. */
  available: number;
  /** The window's total in the store as of this instance's last lease (ours included). */
  knownTotal: number;
  nextSize: number;
  leasedAtMs: number;
  usedAtMs: number;
  /** The lease request in flight; resolves true when the store had less left than asked. */
  refill?: Promise<boolean>;
}

/**
 * A busy bucket (its last lease spent within a tenth of the window) gets twice the block next
 * time; an idle one half. Relative to the window, so a per-minute bucket hit about once a second
 * is leased in growing blocks, not once per request as a fixed 100 ms would have it.
 */
const busyWithinMs = (window: Window): number => clamp(windowMs(window) / 10, 100, 10_000);
/** Quota left untouched this long goes back to the other instances: a tenth of the window, 1–10 s. */
const idleAfterMs = (window: Window): number => clamp(windowMs(window) / 10, 1_000, 10_000);
const MAX_BLOCK = 1_024;
/**
 * A lease never takes more than this share of the quota nobody had leased yet, so blocks shrink
 * to single hits as a window fills: what one instance holds unspent while another refuses stays
 * small, and a bucket used one request at a time is counted exactly.
 */
const SHARE_OF_UNLEASED = 4;

/**
 * Spends quota leased in blocks from the shared store (one store write per block, not per hit).
 * Requests that find the block spent wait for one lease in flight instead of each asking the store.
 */
export class QuotaLeases {
  private readonly leases = new Map<string, Lease>();
  /** Lease requests made in the same tick (a request's buckets, concurrent requests) go to the store together. */
  private batch: { readonly request: QuotaLeaseRequest; resolve(lease: QuotaLease): void; reject(e: unknown): void }[] =
    [];

  private leasing?: () => void;

  constructor(private readonly store: RateLimitStore) {}

  /** True while this instance keeps any lease (spent or not) that `returnIdle` has yet to let go. */
  get holding(): boolean {
    return this.leases.size > 0;
  }

  /** Called whenever a lease is first kept, so whoever returns idle quota need only look while some is held. */
  whenLeasing(listener: () => void): void {
    this.leasing = listener;
  }

  /**
   * Takes one hit and answers the window's hits as this instance counts them: the store's total
   * less what this instance holds unspent, so the remaining quota is never overstated by our own
   * lease. Answers `limit + 1` when no quota is left.
   */
  async take(key: string, limit: number, window: Window, expiresAt: Date, now: Date): Promise<number> {
    const lease = this.leaseOf(key, window, expiresAt);
    for (;;) {
      const hits = this.spend(lease, limit, now);
      if (hits !== undefined) return hits;
      lease.refill ??= this.refill(key, lease, limit, now).finally(() => {
        lease.refill = undefined;
      });
      const exhausted = await lease.refill;
      if (exhausted && lease.available === 0) return limit + 1;
    }
  }

  /**
   * `take`, when this instance's lease answers without the store: the hits, or undefined when the
   * lease is spent (then `take` refills it). Spares a request the promises of `take` on the usual path.
   */
  takeHeld(key: string, limit: number, window: Window, expiresAt: Date, now: Date): number | undefined {
    return this.spend(this.leaseOf(key, window, expiresAt), limit, now);
  }

  private spend(lease: Lease, limit: number, now: Date): number | undefined {
    if (lease.available <= 0) return undefined;
    const hits = lease.knownTotal - lease.available + 1;
    // Quota leased under a higher limit (the plan was lowered since) is not spent past the new one.
    if (hits > limit) return limit + 1;
    lease.available -= 1;
    lease.usedAtMs = now.getTime();
    return hits;
  }

  /**
   * What this instance holds leased but unspent in the window: the store's total less this is what
   * was actually counted, as far as this instance can tell.
   */
  unspent(key: string, window: Window): number {
    const held = this.leases.get(key);
    return held && held.window.start.getTime() === window.start.getTime() ? held.available : 0;
  }

  /**
   * Gives back what leases untouched for a tenth of their window (1–10 s) hold — or every lease's,
   * when `all` (the instance is stopping) — and forgets leases of past windows.
   */
  async returnIdle(now: Date, all = false): Promise<void> {
    const givingBack: Promise<void>[] = [];
    for (const [key, lease] of this.leases) {
      if (lease.refill || (!all && now.getTime() - lease.usedAtMs < idleAfterMs(lease.window))) continue;
      this.leases.delete(key);
      if (lease.available === 0 || lease.window.resetAt <= now) continue;
      givingBack.push(this.store.giveBack(key, lease.window.start, lease.available));
      lease.available = 0;
    }
    await Promise.all(givingBack);
  }

  private leaseOf(key: string, window: Window, expiresAt: Date): Lease {
    const held = this.leases.get(key);
    if (held && held.window.start.getTime() === window.start.getTime()) return held;
    const lease: Lease = {
      window,
      expiresAt,
      available: 0,
      knownTotal: 0,
      nextSize: 1,
      leasedAtMs: -Infinity,
      usedAtMs: -Infinity,
    };
    this.leases.set(key, lease);
    this.leasing?.();
    return lease;
  }

  private async refill(key: string, lease: Lease, limit: number, now: Date): Promise<boolean> {
    const busy = now.getTime() - lease.leasedAtMs < busyWithinMs(lease.window);
    lease.nextSize = busy ? Math.min(lease.nextSize * 2, MAX_BLOCK) : Math.max(1, Math.floor(lease.nextSize / 2));
    const unleased = Math.max(0, limit - lease.knownTotal);
    const want = Math.max(1, Math.min(lease.nextSize, Math.floor(unleased / SHARE_OF_UNLEASED)));
    const { granted, total } = await this.ask({
      bucketKey: key,
      windowStart: lease.window.start,
      expiresAt: lease.expiresAt,
      limit,
      want,
    });
    lease.available += granted;
    lease.knownTotal = total;
    lease.leasedAtMs = now.getTime();
    return granted < want;
  }

  private ask(request: QuotaLeaseRequest): Promise<QuotaLease> {
    return new Promise((resolve, reject) => {
      this.batch.push({ request, resolve, reject });
      if (this.batch.length === 1) queueMicrotask(() => this.sendBatch());
    });
  }

  private sendBatch(): void {
    const batch = this.batch;
    this.batch = [];
    this.store.lease(batch.map((b) => b.request)).then(
      (leases) => batch.forEach((b, i) => b.resolve(leases[i])),
      (e: unknown) => batch.forEach((b) => b.reject(e)),
    );
  }
}

const windowMs = (window: Window): number => window.resetAt.getTime() - window.start.getTime();
const clamp = (value: number, min: number, max: number): number => Math.min(max, Math.max(min, value));
