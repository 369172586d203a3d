import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Paid top-ups and auto-recharge through the billing provider: the
 * top-ups, each account's auto-recharge and provider profile, the inbox of provider events, and
 * the sandbox provider's armed `billing_charge` faults (kept here so the api and the worker see
 * the same ones).
 */
export class BillingGateway1795520000000 implements MigrationInterface {
  name = 'BillingGateway1795520000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE top_ups (
        id bigserial PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        amount numeric(10,2) NOT NULL,
        currency char(3) NOT NULL DEFAULT 'USD',
        status varchar(16) NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed', 'expired')),
        trigger varchar(16) NOT NULL CHECK (trigger IN ('checkout', 'auto')),
        checkout_url text NULL,
        provider varchar(16) NOT NULL,
        provider_reference varchar(255) NULL,
        failure_reason varchar(255) NULL,
        created_at timestamptz NOT NULL,
        completed_at timestamptz NULL
      )`);
    await q.query(`CREATE INDEX top_ups_user_idx ON top_ups (user_id, id DESC)`);
    // The credit of a paid top-up exists at most once, whatever happens above it.
    await q.query(
      `CREATE UNIQUE INDEX ledger_entries_top_up_uq ON ledger_entries (reference_id) WHERE reference_type = 'top_up'`,
    );
    await q.query(`
      CREATE TABLE auto_recharges (
        user_id bigint PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
        enabled boolean NOT NULL DEFAULT false,
        threshold numeric(10,2) NOT NULL,
        amount numeric(10,2) NOT NULL,
        consecutive_failures integer NOT NULL DEFAULT 0,
        last_attempt_at timestamptz NULL,
        last_error varchar(255) NULL,
        in_flight_top_up_id bigint NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`
      CREATE TABLE billing_profiles (
        user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        provider varchar(16) NOT NULL,
        customer_reference varchar(255) NULL,
        payment_method_reference varchar(255) NULL,
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (user_id, provider)
      )`);
    await q.query(`
      CREATE TABLE billing_events (
        id bigserial PRIMARY KEY,
        provider varchar(16) NOT NULL,
        event_id varchar(255) NOT NULL,
        type varchar(255) NOT NULL,
        payload jsonb NOT NULL,
        received_at timestamptz NOT NULL,
        processed_at timestamptz NULL
      )`);
    await q.query(`CREATE UNIQUE INDEX billing_events_event_uq ON billing_events (provider, event_id)`);
    await q.query(`
      CREATE TABLE sandbox_billing_faults (
        user_id bigint PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
        remaining integer NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['sandbox_billing_faults', 'billing_events', 'billing_profiles', 'auto_recharges', 'top_ups'])
      await q.query(`DROP TABLE IF EXISTS ${t}`);
    await q.query(`DROP INDEX IF EXISTS ledger_entries_top_up_uq`);
  }
}
