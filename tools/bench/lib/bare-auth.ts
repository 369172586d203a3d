import { createHash } from 'node:crypto';
import type { Request } from 'express';
import type { Pool } from 'pg';

export interface BarePrincipal {
  readonly id: string;
  readonly user_id: string;
  readonly plan: unknown;
}

/**
 * What every authenticated voiceplane request costs in the database, done by hand for a baseline:
 * the exact token-lookup statement and the rate-limit counter upsert. Null for an unknown token.
 */
export async function bareAuthenticate(pool: Pool, req: Request): Promise<BarePrincipal | null> {
  const hash = createHash('sha256').update((req.headers.authorization ?? '').slice(7)).digest('hex');
  const auth = await pool.query<BarePrincipal>(
    `SELECT 'api_key' AS kind, k.id, k.user_id, k.last_used_at, u.plan
       FROM api_keys k JOIN users u ON u.id = k.user_id
      WHERE k.token_hash = $1 AND NOT u.disabled
     UNION ALL
     SELECT 'session' AS kind, s.id, s.user_id, NULL, u.plan
       FROM sessions s JOIN users u ON u.id = s.user_id
      WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND s.expires_at > $2 AND NOT u.disabled
     LIMIT 1`,
    [hash, new Date()],
  );
  const principal = auth.rows[0] ?? null;
  if (!principal) return null;
  const windowStart = new Date(Math.floor(Date.now() / 60000) * 60000);
  await pool.query(
    `INSERT INTO rate_limit_counters (bucket_key, window_start, hits, expires_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (bucket_key, window_start) DO UPDATE SET hits = rate_limit_counters.hits + EXCLUDED.hits
     RETURNING hits`,
    [`bare:${principal.id}:60`, windowStart, 1, new Date(windowStart.getTime() + 120000)],
  );
  return principal;
}
