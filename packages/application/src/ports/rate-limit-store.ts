export interface QuotaLeaseRequest {
  readonly bucketKey: string;
  readonly windowStart: Date;
  readonly expiresAt: Date;
  readonly limit: number;
  readonly want: number;
}

export interface QuotaLease {
  /** Hits added by this call: at most `want`, never past the limit. */
  readonly granted: number;
  /** The window's total after adding, over every instance. */
  readonly total: number;
}

export interface RateLimitStore {
  /** Adds `cost` hits to the bucket's window and returns the total after adding (atomic). */
  hit(bucketKey: string, windowStart: Date, expiresAt: Date, cost?: number): Promise<number>;
  /**
   * Leases up to `want` hits of each bucket window's quota for one instance to spend on its own,
   * several buckets in one go (one round trip for a request's buckets): each grant is atomic and
   * only what keeps that total at or under its `limit`, so instances together never pass it. The
   * answers are in the order of the requests; no bucket window may be asked for twice in one call.
   */
  lease(requests: readonly QuotaLeaseRequest[]): Promise<QuotaLease[]>;
  /** Hands back `count` leased hits that were never spent, so other instances may lease them. */
  giveBack(bucketKey: string, windowStart: Date, count: number): Promise<void>;
}
