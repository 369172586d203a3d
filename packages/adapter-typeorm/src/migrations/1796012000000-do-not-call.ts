import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The account's do-not-call list: one row per listed number (unique per account, so a number
 * added twice is listed once). The dialer, make_call, chat-app calls and lead writes look numbers
 * up through the unique index; the list route pages through `do_not_call_numbers_user_idx`.
 */
export class DoNotCall1796012000000 implements MigrationInterface {
  name = 'DoNotCall1796012000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE do_not_call_numbers (
        id bigserial PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        phone_number varchar(16) NOT NULL,
        reason varchar(255) NULL,
        created_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX do_not_call_numbers_user_idx ON do_not_call_numbers (user_id, id DESC)`);
    await q.query(`CREATE UNIQUE INDEX do_not_call_numbers_phone_uq ON do_not_call_numbers (user_id, phone_number)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE do_not_call_numbers`);
  }
}
