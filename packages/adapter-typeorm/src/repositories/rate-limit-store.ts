import { QuotaLease, RateLimitStore } from '@voiceplane/application';
import { Database } from '../database';

/**
 * Counters live in an UNLOGGED table (migration QuotaLeases) and are written with
 * synchronous_commit off: a crash may forget counts, which only ever lets a window admit fewer.
 * `set_config(…, true)` lasts for the statement's own transaction, so no session setting leaks
 * into the pool.
 */
const ASYNC_COMMIT = `WITH async_commit AS (SELECT set_config('synchronous_commit', 'off', true))`;

export class PostgresRateLimitStore implements RateLimitStore {
  constructor(private readonly db: Database) {}

  /** One atomic upsert per bucket: the row lock serialises concurrent instances. */
  async hit(bucketKey: string, windowStart: Date, expiresAt: Date, cost = 1): Promise<number> {
    // Raw SQL: a counter upsert (hits + EXCLUDED.hits … RETURNING), which TypeORM's upsert cannot express.
    const rows = await this.db.query<{ hits: number }>(
      `${ASYNC_COMMIT}
       INSERT INTO rate_limit_counters (bucket_key, window_start, hits, expires_at) SELECT $1, $2, $3, $4 FROM async_commit
       ON CONFLICT (bucket_key, window_start) DO UPDATE SET hits = rate_limit_counters.hits + EXCLUDED.hits
       RETURNING hits`,
      [bucketKey, windowStart, cost, expiresAt],
    );
    return rows[0].hits;
  }

  /**
   * The grant is computed from the locked row's old total; `last_grant` carries it out through
   * RETURNING, which only sees the new row.
   */
  async lease(bucketKey: string, windowStart: Date, expiresAt: Date, limit: number, want: number): Promise<QuotaLease> {
    const rows = await this.db.query<{ hits: number; last_grant: number }>(
      `${ASYNC_COMMIT}
       INSERT INTO rate_limit_counters AS c (bucket_key, window_start, hits, last_grant, expires_at)
       SELECT $1, $2, LEAST($4::int, $5::int), LEAST($4::int, $5::int), $3 FROM async_commit
       ON CONFLICT (bucket_key, window_start) DO UPDATE
         SET hits = c.hits + LEAST($5::int, GREATEST(0, $4::int - c.hits)),
             last_grant = LEAST($5::int, GREATEST(0, $4::int - c.hits))
       RETURNING hits, last_grant`,
      [bucketKey, windowStart, expiresAt, Math.max(0, limit), want],
    );
    return { granted: rows[0].last_grant, total: rows[0].hits };
  }

  async giveBack(bucketKey: string, windowStart: Date, count: number): Promise<void> {
    await this.db.query(
      `${ASYNC_COMMIT}
       UPDATE rate_limit_counters SET hits = GREATEST(0, hits - $3)
        WHERE bucket_key = $1 AND window_start = $2 AND EXISTS (SELECT 1 FROM async_commit)`,
      [bucketKey, windowStart, count],
    );
  }

  /** Housekeeping: windows that can no longer be asked about. */
  async purgeExpired(now: Date): Promise<number> {
    const rows = await this.db.query(`DELETE FROM rate_limit_counters WHERE expires_at < $1 RETURNING 1`, [now]);
    return rows.length;
  }
}
