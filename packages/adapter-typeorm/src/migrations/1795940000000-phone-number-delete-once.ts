import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One delete of a number at a time: two requests deleting the same number at once must not both
 * call the provider (the second release could fail, or release a number re-bought meanwhile). The
 * request whose intent row is stored first goes on; the other finds the intent and stops.
 */
export class PhoneNumberDeleteOnce1795940000000 implements MigrationInterface {
  name = 'PhoneNumberDeleteOnce1795940000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM sip_provisioning_cleanup a USING sip_provisioning_cleanup b
      WHERE a.action = 'delete_number' AND b.action = 'delete_number' AND a.resource_id = b.resource_id AND a.id > b.id`);
    await q.query(
      `CREATE UNIQUE INDEX sip_provisioning_cleanup_one_delete ON sip_provisioning_cleanup (resource_id) WHERE action = 'delete_number'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX sip_provisioning_cleanup_one_delete`);
  }
}
