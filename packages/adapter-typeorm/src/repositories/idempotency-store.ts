import { StoredIdempotentRequest } from '@voiceplane/domain';
import { AnswerOfOutcome, IdempotencyClaim, IdempotencyStore } from '@voiceplane/application';
import { Database } from '../database';
import { IdempotencyKeyRecord } from '../records';

/**
 * `committed` is stored, never shown: an effect of the request committed. While its request runs
 * (lease alive) that is still in flight; once the lease lapsed without an answer, the answer is lost.
 */
function stateOf(stored: string, leaseUntil: Date | null, now: Date): StoredIdempotentRequest['state'] {
  if (stored !== 'committed') return stored as StoredIdempotentRequest['state'];
  return leaseUntil !== null && new Date(leaseUntil) >= now ? 'in_flight' : 'answer_lost';
}

export class PostgresIdempotencyStore implements IdempotencyStore {
  constructor(private readonly db: Database) {}

  async claim(scope: string, fingerprint: string, claim: IdempotencyClaim): Promise<StoredIdempotentRequest | null> {
    // Raw SQL: one conditional upsert decides the claim atomically. An expired claim, or an
    // in-flight one whose lease lapsed (its request died), is replaced as if it never existed.
    const claimed = await this.db.query<Pick<IdempotencyKeyRecord, 'scope'>>(
      `INSERT INTO idempotency_keys (scope, fingerprint, state, created_at, expires_at, lease_expires_at) VALUES ($1, $2, 'in_flight', $3, $4, $5)
       ON CONFLICT (scope) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, state = 'in_flight',
         response_status = NULL, response_body = NULL, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at,
         lease_expires_at = EXCLUDED.lease_expires_at
       WHERE idempotency_keys.expires_at < $3
          OR (idempotency_keys.state = 'in_flight' AND (idempotency_keys.lease_expires_at IS NULL OR idempotency_keys.lease_expires_at < $3))
       RETURNING scope`,
      [scope, fingerprint, claim.now, claim.expiresAt, claim.leaseUntil],
    );
    if (claimed.length > 0) return null;
    const r = await this.db.one<
      Pick<IdempotencyKeyRecord, 'fingerprint' | 'state' | 'response_status' | 'response_body' | 'lease_expires_at'>
    >(
      `SELECT fingerprint, state, response_status, response_body, lease_expires_at FROM idempotency_keys WHERE scope = $1`,
      [scope],
    );
    if (!r) return this.claim(scope, fingerprint, claim);
    return {
      fingerprint: r.fingerprint,
      state: stateOf(r.state, r.lease_expires_at, claim.now),
      responseStatus: r.response_status,
      responseBody: r.response_body,
    };
  }

  async renew(scope: string, leaseUntil: Date): Promise<void> {
    await this.db.query(
      `UPDATE idempotency_keys SET lease_expires_at = $2 WHERE scope = $1 AND state IN ('in_flight', 'committed')`,
      [scope, leaseUntil],
    );
  }

  bindEffects<T>(scope: string, run: () => T, answerOf?: AnswerOfOutcome): T {
    // Inside each transaction the request commits: the claim is marked in the same commit, and the
    // transaction that concludes the use case stores its answer there too. A claim already answered
    // or released is left alone (background work the request started may commit later).
    return this.db.withCommitStep(async (conclusion) => {
      const answer = conclusion && answerOf ? await answerOf(conclusion.result) : null;
      if (answer) {
        await this.db.query(
          `UPDATE idempotency_keys SET state = 'done', response_status = $2, response_body = $3, lease_expires_at = NULL
           WHERE scope = $1 AND state IN ('in_flight', 'committed')`,
          [scope, answer.status, answer.body],
        );
        return;
      }
      await this.db.query(
        `UPDATE idempotency_keys SET state = 'committed' WHERE scope = $1 AND state = 'in_flight'`,
        [scope],
        { prepared: true },
      );
    }, run);
  }

  async complete(scope: string, status: number, body: string): Promise<void> {
    await this.db.query(
      `UPDATE idempotency_keys SET state = 'done', response_status = $2, response_body = $3, lease_expires_at = NULL WHERE scope = $1`,
      [scope, status, body],
    );
  }

  async release(scope: string): Promise<void> {
    await this.db.query(`DELETE FROM idempotency_keys WHERE scope = $1`, [scope]);
  }
}
