import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Automation webhook tokens are stored sealed (AES-256-GCM, `v1.` + base64url of IV, tag and
 * ciphertext: 83 characters for a 32-character token). The key is not the database's to know, so
 * tokens already stored in clear are sealed by the api at start, and read as they are until then.
 */
export class SealedHookTokens1795630000000 implements MigrationInterface {
  name = 'SealedHookTokens1795630000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE automations ALTER COLUMN webhook_token TYPE varchar(160)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE automations ALTER COLUMN webhook_token TYPE varchar(64)`);
  }
}
