import { StoredIdempotentRequest } from '@voiceplane/domain';
import { IdempotencyStore } from '@voiceplane/application';
import { Database } from '../database';

export class PostgresIdempotencyStore implements IdempotencyStore {
  constructor(private readonly db: Database) {}

  async claim(scope: string, fingerprint: string, now: Date, expiresAt: Date): Promise<StoredIdempotentRequest | null> {
    // An expired claim is replaced as if it never existed (24 h retention).
    // Raw SQL: a conditional upsert (ON CONFLICT … DO UPDATE … WHERE expired) decides the claim in one statement.
    const claimed = await this.db.query(
      `INSERT INTO idempotency_keys (scope, fingerprint, state, created_at, expires_at) VALUES ($1, $2, 'in_flight', $3, $4)
       ON CONFLICT (scope) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, state = 'in_flight',
         response_status = NULL, response_body = NULL, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
       WHERE idempotency_keys.expires_at < $3
       RETURNING scope`,
      [scope, fingerprint, now, expiresAt],
    );
    if (claimed.length > 0) return null;
    const r = await this.db.one(`SELECT fingerprint, state, response_status, response_body FROM idempotency_keys WHERE scope = $1`, [scope]);
    if (!r) return this.claim(scope, fingerprint, now, expiresAt);
    return {
      fingerprint: r.fingerprint as string, state: r.state as StoredIdempotentRequest['state'],
      responseStatus: (r.response_status as number) ?? null, responseBody: (r.response_body as string) ?? null,
    };
  }

  async complete(scope: string, status: number, body: string): Promise<void> {
    await this.db.query(`UPDATE idempotency_keys SET state = 'done', response_status = $2, response_body = $3 WHERE scope = $1`, [scope, status, body]);
  }

  async release(scope: string): Promise<void> {
    await this.db.query(`DELETE FROM idempotency_keys WHERE scope = $1`, [scope]);
  }
}
