import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * SIP trunks (one row per `sip` phone number, same id), what purchased numbers need for release
 * and renewal, and the durable queue of provider clean-up work.
 */
export class Telephony1795334549220 implements MigrationInterface {
  name = 'Telephony1795334549220';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE phone_numbers
        ADD COLUMN provider_reference varchar(64) NULL,
        ADD COLUMN renews_at timestamptz NULL`);
    // A purchased number belongs to one account at a time.
    await q.query(
      `CREATE UNIQUE INDEX phone_numbers_purchased_uq ON phone_numbers (phone_number) WHERE type = 'purchased'`,
    );
    await q.query(`CREATE INDEX phone_numbers_renewal_idx ON phone_numbers (renews_at) WHERE renews_at IS NOT NULL`);
    await q.query(`
      CREATE TABLE sip_trunks (
        id bigint PRIMARY KEY REFERENCES phone_numbers(id) ON DELETE CASCADE,
        sip_username varchar(128) NOT NULL,
        sip_password_cipher text NOT NULL,
        sip_address varchar(260) NOT NULL,
        sip_calling_format varchar(8) NOT NULL CHECK (sip_calling_format IN ('+e164', 'e164', 'national')),
        inbound_authorization_type varchar(4) NOT NULL CHECK (inbound_authorization_type IN ('auth', 'ip')),
        allowed_inbound_ips jsonb NULL,
        outbound_proxy boolean NOT NULL DEFAULT false,
        inbound_trunk_id varchar(64) NOT NULL,
        outbound_trunk_id varchar(64) NOT NULL,
        inbound_route_id varchar(64) NOT NULL,
        CHECK ((inbound_authorization_type = 'ip') = (allowed_inbound_ips IS NOT NULL))
      )`);
    // The voice runtime names the inbound trunk a call arrived on.
    await q.query(`CREATE INDEX sip_trunks_inbound_trunk_idx ON sip_trunks (inbound_trunk_id)`);
    await q.query(`
      CREATE TABLE sip_provisioning_cleanup (
        id bigserial PRIMARY KEY,
        action varchar(16) NOT NULL CHECK (action IN ('delete_trunk', 'delete_route', 'point_route')),
        resource_id varchar(64) NOT NULL,
        target_trunk_id varchar(64) NULL,
        release_trunk_ids jsonb NOT NULL DEFAULT '[]',
        wait_for_calls boolean NOT NULL DEFAULT false,
        attempts integer NOT NULL DEFAULT 0,
        last_error varchar(500) NULL,
        next_attempt_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX sip_provisioning_cleanup_due_idx ON sip_provisioning_cleanup (next_attempt_at, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS sip_provisioning_cleanup`);
    await q.query(`DROP TABLE IF EXISTS sip_trunks`);
    await q.query(`DROP INDEX IF EXISTS phone_numbers_renewal_idx`);
    await q.query(`DROP INDEX IF EXISTS phone_numbers_purchased_uq`);
    await q.query(
      `ALTER TABLE phone_numbers DROP COLUMN IF EXISTS renews_at, DROP COLUMN IF EXISTS provider_reference`,
    );
  }
}
