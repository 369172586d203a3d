import { createHash } from 'node:crypto';
import type { Request } from 'express';
import type { Pool } from 'pg';

export interface BarePrincipal {
  readonly id: string;
  readonly user_id: string;
  readonly plan: unknown;
}

/**
 * What authenticating a request needs from the database, done by hand for a baseline: the token
 * lookup, nothing else. The product's own overhead (its rate-limit counter write, logging) is left
 * out on purpose: a baseline that shares a cost hides it. Null for an unknown token. `prepared`:
 * a named prepared statement, for a baseline that parses and plans once per connection.
 */
export async function bareAuthenticate(pool: Pool, req: Request, prepared = false): Promise<BarePrincipal | null> {
  const hash = createHash('sha256')
    .update((req.headers.authorization ?? '').slice(7))
    .digest('hex');
  const auth = await pool.query<BarePrincipal>({
    name: prepared ? 'bare_authenticate' : undefined,
    text: `SELECT 'api_key' AS kind, k.id, k.user_id, k.last_used_at, u.plan
       FROM api_keys k JOIN users u ON u.id = k.user_id
      WHERE k.token_hash = $1 AND NOT u.disabled
     UNION ALL
     SELECT 'session' AS kind, s.id, s.user_id, NULL, u.plan
       FROM sessions s JOIN users u ON u.id = s.user_id
      WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND s.expires_at > $2 AND NOT u.disabled
     LIMIT 1`,
    values: [hash, new Date()],
  });
  return auth.rows[0] ?? null;
}
