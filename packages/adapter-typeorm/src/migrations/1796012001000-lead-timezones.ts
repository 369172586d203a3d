import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Calling windows in the lead's own time: a campaign may read each contact's window in the
 * contact's zone. `leads.timezone` is that zone as derived when the contact was written (its
 * `timezone` variable, else its number's country when the country has one zone); null means the
 * campaign's. The dialer asks for due contacts of the zones whose window is open.
 */
export class LeadTimezones1796012001000 implements MigrationInterface {
  name = 'LeadTimezones1796012001000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE campaigns ADD COLUMN window_in_lead_timezone boolean NOT NULL DEFAULT false`);
    await q.query(`ALTER TABLE leads ADD COLUMN timezone varchar(64) NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE leads DROP COLUMN timezone`);
    await q.query(`ALTER TABLE campaigns DROP COLUMN window_in_lead_timezone`);
  }
}
