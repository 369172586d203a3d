import { MigrationInterface, QueryRunner } from 'typeorm';

/** Accounts, credentials, the balance ledger and the cross-instance counters every request touches. */
export class Foundation1763800000000 implements MigrationInterface {
  name = 'Foundation1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE system_settings (
        key text PRIMARY KEY,
        value text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE users (
        id bigserial PRIMARY KEY,
        name varchar(255) NOT NULL,
        email varchar(255) NOT NULL,
        password_hash text NULL,
        disabled boolean NOT NULL DEFAULT false,
        balance numeric(14,4) NOT NULL DEFAULT 0,
        plan jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX users_email_lower_uq ON users (lower(email))`);
    await q.query(`
      CREATE TABLE api_keys (
        id bigserial PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name varchar(255) NOT NULL,
        token_hash char(64) NOT NULL,
        last_used_at timestamptz NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX api_keys_token_hash_uq ON api_keys (token_hash)`);
    await q.query(`CREATE INDEX api_keys_user_idx ON api_keys (user_id, id DESC)`);
    await q.query(`
      CREATE TABLE sessions (
        id bigserial PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        token_hash char(64) NOT NULL,
        expires_at timestamptz NOT NULL,
        revoked_at timestamptz NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX sessions_token_hash_uq ON sessions (token_hash)`);
    await q.query(`
      CREATE TABLE ledger_entries (
        id bigserial PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        type varchar(32) NOT NULL,
        amount numeric(14,4) NOT NULL,
        balance_after numeric(14,4) NOT NULL,
        description varchar(255) NOT NULL,
        reference_type varchar(32) NULL,
        reference_id bigint NULL,
        request_id varchar(128) NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX ledger_entries_user_idx ON ledger_entries (user_id, id DESC)`);
    await q.query(`
      CREATE TABLE webhook_signing_secrets (
        user_id bigint PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
        secret varchar(128) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        previous_secret varchar(128) NULL,
        previous_expires_at timestamptz NULL
      )`);
    await q.query(`
      CREATE TABLE rate_limit_counters (
        bucket_key varchar(300) NOT NULL,
        window_start timestamptz NOT NULL,
        hits integer NOT NULL,
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (bucket_key, window_start)
      )`);
    await q.query(`CREATE INDEX rate_limit_counters_expiry_idx ON rate_limit_counters (expires_at)`);
    await q.query(`
      CREATE TABLE idempotency_keys (
        scope varchar(600) PRIMARY KEY,
        fingerprint char(64) NOT NULL,
        state varchar(16) NOT NULL,
        response_status integer NULL,
        response_body text NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX idempotency_keys_expiry_idx ON idempotency_keys (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of [
      'idempotency_keys',
      'rate_limit_counters',
      'webhook_signing_secrets',
      'ledger_entries',
      'sessions',
      'api_keys',
      'users',
      'system_settings',
    ]) {
      await q.query(`DROP TABLE IF EXISTS ${t}`);
    }
  }
}
