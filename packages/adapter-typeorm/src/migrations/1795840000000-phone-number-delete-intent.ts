import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A phone-number delete calls the provider with no transaction open: it first stores its intent as a
 * `delete_number` clean-up task (leased to the request), so a process that dies between the
 * provider's answer and the row's deletion leaves a task the clean-up job finishes.
 */
export class PhoneNumberDeleteIntent1795840000000 implements MigrationInterface {
  name = 'PhoneNumberDeleteIntent1795840000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sip_provisioning_cleanup DROP CONSTRAINT sip_provisioning_cleanup_action_check`);
    await q.query(`ALTER TABLE sip_provisioning_cleanup ADD CONSTRAINT sip_provisioning_cleanup_action_check
      CHECK (action IN ('delete_trunk', 'delete_route', 'point_route', 'delete_number'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM sip_provisioning_cleanup WHERE action = 'delete_number'`);
    await q.query(`ALTER TABLE sip_provisioning_cleanup DROP CONSTRAINT sip_provisioning_cleanup_action_check`);
    await q.query(`ALTER TABLE sip_provisioning_cleanup ADD CONSTRAINT sip_provisioning_cleanup_action_check
      CHECK (action IN ('delete_trunk', 'delete_route', 'point_route'))`);
  }
}
