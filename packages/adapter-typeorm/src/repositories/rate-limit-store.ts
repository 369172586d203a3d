import { RateLimitStore } from '@voiceplane/application';
import { Database } from '../database';

export class PostgresRateLimitStore implements RateLimitStore {
  constructor(private readonly db: Database) {}

  /** One atomic upsert per bucket: the row lock serialises concurrent instances. */
  async hit(bucketKey: string, windowStart: Date, expiresAt: Date, cost = 1): Promise<number> {
    // Raw SQL: a counter upsert (hits + EXCLUDED.hits … RETURNING), which TypeORM's upsert cannot express.
    const rows = await this.db.query<{ hits: number }>(
      `INSERT INTO rate_limit_counters (bucket_key, window_start, hits, expires_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (bucket_key, window_start) DO UPDATE SET hits = rate_limit_counters.hits + EXCLUDED.hits
       RETURNING hits`,
      [bucketKey, windowStart, cost, expiresAt],
    );
    return rows[0].hits;
  }

  /** Housekeeping: windows that can no longer be asked about. */
  async purgeExpired(now: Date): Promise<number> {
    const rows = await this.db.query(`DELETE FROM rate_limit_counters WHERE expires_at < $1 RETURNING 1`, [now]);
    return rows.length;
  }
}
