import { QuotaLease, QuotaLeaseRequest, RateLimitStore } from '@voiceplane/application';
import { Database } from '../database';
import { RateLimitCounterRecord } from '../records';

/**
 * Counters live in an UNLOGGED table (migration QuotaLeases) and are written with
 * synchronous_commit off: a crash may forget counts, which only ever lets a window admit fewer.
 * `set_config(…, true)` lasts for the statement's own transaction, so no session setting leaks
 * into the pool.
 */
const ASYNC_COMMIT = `WITH async_commit AS (SELECT set_config('synchronous_commit', 'off', true))`;

/**
 * Every bucket of a request in one statement. Each grant is computed from its locked row's old
 * total; `last_grant` carries it out through RETURNING, which only sees the new row. Built once:
 * its text is the prepared statement's key (see Database.query).
 */
const LEASE = `${ASYNC_COMMIT},
  asked AS (SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::timestamptz[], $4::int[], $5::int[])
              WITH ORDINALITY AS a (bucket_key, window_start, expires_at, lim, want, n))
  INSERT INTO rate_limit_counters AS c (bucket_key, window_start, hits, last_grant, expires_at)
  SELECT a.bucket_key, a.window_start, LEAST(a.lim, a.want), LEAST(a.lim, a.want), a.expires_at FROM asked a, async_commit ORDER BY a.n
  ON CONFLICT (bucket_key, window_start) DO UPDATE
    SET hits = c.hits + LEAST(EXCLUDED.hits, GREATEST(0, (SELECT a.lim FROM asked a WHERE a.bucket_key = c.bucket_key AND a.window_start = c.window_start) - c.hits)),
        last_grant = LEAST(EXCLUDED.hits, GREATEST(0, (SELECT a.lim FROM asked a WHERE a.bucket_key = c.bucket_key AND a.window_start = c.window_start) - c.hits))
  RETURNING bucket_key, window_start, hits, last_grant`;

export class PostgresRateLimitStore implements RateLimitStore {
  constructor(private readonly db: Database) {}

  /** One atomic upsert per bucket: the row lock serialises concurrent instances. */
  async hit(bucketKey: string, windowStart: Date, expiresAt: Date, cost = 1): Promise<number> {
    // Raw SQL: a counter upsert (hits + EXCLUDED.hits … RETURNING), which TypeORM's upsert cannot express.
    const rows = await this.db.query<Pick<RateLimitCounterRecord, 'hits'>>(
      `${ASYNC_COMMIT}
       INSERT INTO rate_limit_counters (bucket_key, window_start, hits, expires_at) SELECT $1, $2, $3, $4 FROM async_commit
       ON CONFLICT (bucket_key, window_start) DO UPDATE SET hits = rate_limit_counters.hits + EXCLUDED.hits
       RETURNING hits`,
      [bucketKey, windowStart, cost, expiresAt],
    );
    return rows[0].hits;
  }

  /** Rows are taken in key order, so two instances leasing the same buckets lock them in the same order. */
  async lease(requests: readonly QuotaLeaseRequest[]): Promise<QuotaLease[]> {
    if (requests.length === 0) return [];
    const asked = [...requests].sort((a, b) =>
      a.bucketKey < b.bucketKey
        ? -1
        : a.bucketKey > b.bucketKey
          ? 1
          : a.windowStart.getTime() - b.windowStart.getTime(),
    );
    // Raw SQL: a multi-row counter upsert whose update needs each row's own limit, which TypeORM's upsert cannot express.
    const rows = await this.db.query<Omit<RateLimitCounterRecord, 'expires_at'>>(
      LEASE,
      [
        asked.map((r) => r.bucketKey),
        asked.map((r) => r.windowStart),
        asked.map((r) => r.expiresAt),
        asked.map((r) => Math.max(0, r.limit)),
        asked.map((r) => Math.max(0, r.want)),
      ],
      { prepared: true },
    );
    const byBucket = new Map(
      rows.map((r) => [bucketOf(r.bucket_key, new Date(r.window_start)), { granted: r.last_grant, total: r.hits }]),
    );
    return requests.map((r) => {
      const lease = byBucket.get(bucketOf(r.bucketKey, r.windowStart));
      if (!lease) throw new Error(`no lease answered for ${r.bucketKey}`);
      return lease;
    });
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
    const rows = await this.db.query<{ '?column?': number }>(
      `DELETE FROM rate_limit_counters WHERE expires_at < $1 RETURNING 1`,
      [now],
    );
    return rows.length;
  }
}

const bucketOf = (key: string, windowStart: Date): string => `${windowStart.getTime()} ${key}`;
