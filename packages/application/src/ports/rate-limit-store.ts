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
   * Leases up to `want` hits of the window's quota for one instance to spend on its own (atomic):
   * grants only what keeps the total at or under `limit`, so instances together never pass it.
   */
  lease(bucketKey: string, windowStart: Date, expiresAt: Date, limit: number, want: number): Promise<QuotaLease>;
  /** Hands back `count` leased hits that were never spent, so other instances may lease them. */
  giveBack(bucketKey: string, windowStart: Date, count: number): Promise<void>;
}
