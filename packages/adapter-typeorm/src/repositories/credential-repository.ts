import { completePlan, Plan } from '@voiceplane/domain';
import { ApiKey, CredentialRepository, Principal } from '@voiceplane/application';
import { Database } from '../database';
import { ApiKeyRecord, SessionRecord, UserRecord } from '../records';
import { num } from './rows';

type KeyRow = Pick<ApiKeyRecord, 'id' | 'user_id' | 'name' | 'last_used_at' | 'created_at'>;
const KEY_COLUMNS = 'id, user_id, name, last_used_at, created_at';

/**
 * One row of `findPrincipal`'s union: an API key's or a session's id and owner, the field the
 * other kind lacks null, and the owner's plan.
 */
type PrincipalRow = Pick<ApiKeyRecord, 'id' | 'user_id' | 'last_used_at'> &
  Pick<UserRecord, 'plan'> & {
    kind: Principal['tokenKind'];
    expires_at: SessionRecord['expires_at'] | null;
  };

function toKey(r: KeyRow): ApiKey {
  return { id: num(r.id), userId: num(r.user_id), name: r.name, lastUsedAt: r.last_used_at, createdAt: r.created_at };
}

export class TypeormCredentialRepository implements CredentialRepository {
  constructor(private readonly db: Database) {}

  async createApiKey(userId: number, name: string, tokenHash: string): Promise<ApiKey> {
    const rows = await this.db.query<KeyRow>(
      `INSERT INTO api_keys (user_id, name, token_hash) VALUES ($1, $2, $3) RETURNING ${KEY_COLUMNS}`,
      [userId, name, tokenHash],
    );
    return toKey(rows[0]);
  }

  async listApiKeys(userId: number): Promise<ApiKey[]> {
    const rows = await this.db.query<KeyRow>(
      `SELECT ${KEY_COLUMNS} FROM api_keys WHERE user_id = $1 ORDER BY id DESC`,
      [userId],
    );
    return rows.map(toKey);
  }

  async deleteApiKey(userId: number, id: number): Promise<boolean> {
    const rows = await this.db.query<Pick<ApiKeyRecord, 'id'>>(
      `DELETE FROM api_keys WHERE user_id = $1 AND id = $2 RETURNING id`,
      [userId, id],
    );
    return rows.length > 0;
  }

  async createSession(userId: number, tokenHash: string, expiresAt: Date): Promise<void> {
    await this.db.query(`INSERT INTO sessions (user_id, token_hash, expires_at) VALUES ($1, $2, $3)`, [
      userId,
      tokenHash,
      expiresAt,
    ]);
  }

  async revokeSession(sessionId: number, at: Date): Promise<void> {
    // Raw SQL: a conditional UPDATE keeps the first revocation time.
    await this.db.query(`UPDATE sessions SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL`, [sessionId, at]);
  }

  /** One round trip on the hot path: both token kinds, the user's state and plan. */
  async findPrincipal(tokenHash: string, now: Date): Promise<Principal | null> {
    const r = await this.db.one<PrincipalRow>(
      `SELECT 'api_key' AS kind, k.id, k.user_id, k.last_used_at, NULL AS expires_at, u.plan
         FROM api_keys k JOIN users u ON u.id = k.user_id
        WHERE k.token_hash = $1 AND NOT u.disabled
       UNION ALL
       SELECT 'session' AS kind, s.id, s.user_id, NULL, s.expires_at, u.plan
         FROM sessions s JOIN users u ON u.id = s.user_id
        WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND s.expires_at > $2 AND NOT u.disabled
       LIMIT 1`,
      [tokenHash, now],
    );
    if (!r) return null;
    return {
      userId: num(r.user_id),
      tokenKind: r.kind,
      tokenId: num(r.id),
      plan: completePlan(r.plan as Partial<Plan>),
      lastUsedAt: r.last_used_at,
      expiresAt: r.expires_at,
    };
  }

  async touchApiKey(id: number, at: Date): Promise<void> {
    await this.db.query(`UPDATE api_keys SET last_used_at = $2 WHERE id = $1`, [id, at]);
  }
}
