import { SigningSecret, SigningSecretRepository } from '@voiceplane/application';
import { Database } from '../database';
import { WebhookSigningSecretRecord } from '../records';

function toSecret(r: WebhookSigningSecretRecord): SigningSecret {
  return {
    secret: r.secret,
    createdAt: r.created_at,
    previousSecret: r.previous_secret,
    previousExpiresAt: r.previous_expires_at,
  };
}

export class TypeormSigningSecretRepository implements SigningSecretRepository {
  constructor(private readonly db: Database) {}

  async create(userId: number, secret: string): Promise<void> {
    await this.db.query(`INSERT INTO webhook_signing_secrets (user_id, secret) VALUES ($1, $2)`, [userId, secret]);
  }

  async get(userId: number): Promise<SigningSecret | null> {
    const r = await this.db.one<WebhookSigningSecretRecord>(
      `SELECT * FROM webhook_signing_secrets WHERE user_id = $1`,
      [userId],
    );
    return r ? toSecret(r) : null;
  }

  async rotate(userId: number, secret: string, previousExpiresAt: Date): Promise<SigningSecret> {
    // Raw SQL: the current secret becomes the previous one within the statement, so concurrent rotations cannot lose one.
    const rows = await this.db.query<WebhookSigningSecretRecord>(
      `UPDATE webhook_signing_secrets
          SET previous_secret = secret, previous_expires_at = $3, secret = $2, created_at = now()
        WHERE user_id = $1 RETURNING *`,
      [userId, secret, previousExpiresAt],
    );
    return toSecret(rows[0]);
  }
}
