import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The mid-call tool of a lookup automation kept the automation's hook URL, token included, in
 * clear as its endpoint. The tool runs its automation by id and never calls that URL, so the
 * token is removed from the stored endpoints (the same `[redacted]` the logs show); the token stays
 * sealed on the automation. Not reversible: the tokens are not kept anywhere else in clear.
 */
export class ToolHookEndpoints1795740000000 implements MigrationInterface {
  name = 'ToolHookEndpoints1795740000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `UPDATE tools SET endpoint = regexp_replace(endpoint, '(/api/hooks/automations/[^/?#]*/)[^/?#]+', '\\1[redacted]', 'gi')
       WHERE automation_id IS NOT NULL AND endpoint ~* '/api/hooks/automations/[^/?#]*/[^/?#]+'`,
    );
  }

  async down(): Promise<void> {
    // Nothing to restore: the removed tokens are still on their automations, sealed.
  }
}
