import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Campaigns and their leads. A lead group is a primary lead (`primary_lead_id` null) and its
 * secondary contacts (`position` gives the calling order); deleting the primary or the campaign
 * deletes the group. Calls keep the campaign and lead they were placed for as plain ids: they
 * outlive both. The dialer finds due contacts through `leads_due_idx` and open calls of a campaign
 * through `calls_campaign_open_idx`.
 */
export class Campaigns1795960000000 implements MigrationInterface {
  name = 'Campaigns1795960000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE campaigns (
        id bigserial PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        assistant_id bigint NOT NULL,
        name varchar(255) NOT NULL,
        status varchar(16) NOT NULL CHECK (status IN ('draft', 'in-progress', 'stopped', 'completed')),
        timezone varchar(64) NOT NULL,
        max_calls_in_parallel integer NOT NULL,
        mark_complete_when_no_leads boolean NOT NULL,
        start_minute integer NOT NULL,
        end_minute integer NOT NULL,
        allowed_days json NOT NULL,
        max_retries integer NOT NULL,
        retry_interval integer NOT NULL,
        retry_on_voicemail boolean NOT NULL,
        retry_on_goal_incomplete boolean NOT NULL,
        goal_completion_variable varchar(255) NULL,
        phone_number_ids json NOT NULL,
        calls_placed integer NOT NULL DEFAULT 0,
        stop_reason varchar(32) NULL,
        started_at timestamptz NULL,
        completed_at timestamptz NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX campaigns_user_idx ON campaigns (user_id, id DESC)`);
    await q.query(`CREATE INDEX campaigns_running_idx ON campaigns (id) WHERE status = 'in-progress'`);
    await q.query(`
      CREATE TABLE leads (
        id bigserial PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        campaign_id bigint NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
        primary_lead_id bigint NULL REFERENCES leads(id) ON DELETE CASCADE,
        position integer NOT NULL,
        phone_number varchar(16) NOT NULL,
        variables json NOT NULL,
        status varchar(24) NOT NULL CHECK (status IN ('created', 'scheduled', 'processing', 'completed', 'rescheduled', 'reached-max-retries', 'blacklisted')),
        attempts integer NOT NULL DEFAULT 0,
        rounds_done integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NULL,
        last_call_id bigint NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX leads_user_idx ON leads (user_id, id DESC)`);
    await q.query(`CREATE INDEX leads_campaign_idx ON leads (campaign_id, phone_number)`);
    await q.query(`CREATE INDEX leads_group_idx ON leads (primary_lead_id, position)`);
    await q.query(
      `CREATE INDEX leads_due_idx ON leads (campaign_id, status) WHERE status IN ('created', 'scheduled', 'rescheduled', 'processing')`,
    );
    await q.query(`ALTER TABLE calls ADD COLUMN campaign_id bigint NULL, ADD COLUMN lead_id bigint NULL`);
    await q.query(`CREATE INDEX calls_campaign_idx ON calls (campaign_id, id) WHERE campaign_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX calls_campaign_idx`);
    await q.query(`ALTER TABLE calls DROP COLUMN campaign_id, DROP COLUMN lead_id`);
    await q.query(`DROP TABLE leads`);
    await q.query(`DROP TABLE campaigns`);
  }
}
