import { Window } from '@voiceplane/domain';
import { RateLimitStore } from '../ports/rate-limit-store';

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

/** A busy bucket (leases spent faster than this) gets twice the block next time; an idle one half. */
const BUSY_MS = 100;
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

  constructor(private readonly store: RateLimitStore) {}

  /**
   * Takes one hit and answers the window's hits as this instance counts them: the store's total
   * less what this instance holds unspent, so the remaining quota is never overstated by our own
   * lease. Answers `limit + 1` when no quota is left.
   */
  async take(key: string, limit: number, window: Window, expiresAt: Date, now: Date): Promise<number> {
    const lease = this.leaseOf(key, window, expiresAt);
    for (;;) {
      if (lease.available > 0) {
        const hits = lease.knownTotal - lease.available + 1;
        // Quota leased under a higher limit (the plan was lowered since) is not spent past the new one.
        if (hits > limit) return limit + 1;
        lease.available -= 1;
        lease.usedAtMs = now.getTime();
        return hits;
      }
      lease.refill ??= this.refill(key, lease, limit, now).finally(() => {
        lease.refill = undefined;
      });
      const exhausted = await lease.refill;
      if (exhausted && lease.available === 0) return limit + 1;
    }
  }

  /**
   * What this instance holds leased but unspent in the window: the store's total less this is what
   * was actually counted, as far as this instance can tell.
   */
  unspent(key: string, window: Window): number {
    const held = this.leases.get(key);
    return held && held.window.start.getTime() === window.start.getTime() ? held.available : 0;
  }

  /** Gives back what leases untouched for `idleMs` hold, and forgets leases of past windows. */
  async returnIdle(now: Date, idleMs: number): Promise<void> {
    const givingBack: Promise<void>[] = [];
    for (const [key, lease] of this.leases) {
      if (lease.refill || now.getTime() - lease.usedAtMs < idleMs) continue;
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
    const lease: Lease = { window, expiresAt, available: 0, knownTotal: 0, nextSize: 1, leasedAtMs: -Infinity, usedAtMs: -Infinity };
    this.leases.set(key, lease);
    return lease;
  }

  private async refill(key: string, lease: Lease, limit: number, now: Date): Promise<boolean> {
    const busy = now.getTime() - lease.leasedAtMs < BUSY_MS;
    lease.nextSize = busy ? Math.min(lease.nextSize * 2, MAX_BLOCK) : Math.max(1, Math.floor(lease.nextSize / 2));
    const unleased = Math.max(0, limit - lease.knownTotal);
    const want = Math.max(1, Math.min(lease.nextSize, Math.floor(unleased / SHARE_OF_UNLEASED)));
    const { granted, total } = await this.store.lease(key, lease.window.start, lease.expiresAt, limit, want);
    lease.available += granted;
    lease.knownTotal = total;
    lease.leasedAtMs = now.getTime();
    return granted < want;
  }
}
