export interface RateLimitStore {
  /** Adds `cost` hits to the bucket's window and returns the total after adding (atomic). */
  hit(bucketKey: string, windowStart: Date, expiresAt: Date, cost?: number): Promise<number>;
}
