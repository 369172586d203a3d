import { Database } from '../database';

const BATCH = 5_000;

/**
 * Sweeps what the backbone no longer needs: published outbox events and processed-event records
 * older than the cutoff. Deletes in batches so no sweep holds locks for long.
 */
export class EventRetention {
  constructor(private readonly db: Database) {}

  async sweep(cutoff: Date): Promise<{ outboxEvents: number; processedEvents: number }> {
    // Raw SQL: DELETE … LIMIT through a subquery keeps each batch's locks short; TypeORM's delete has no LIMIT.
    const outboxEvents = await this.inBatches(
      `
      DELETE FROM outbox_events WHERE seq IN (
        SELECT seq FROM outbox_events WHERE published_at IS NOT NULL AND published_at < $1 LIMIT ${BATCH})`,
      cutoff,
    );
    const processedEvents = await this.inBatches(
      `
      DELETE FROM processed_events WHERE (consumer, event_id) IN (
        SELECT consumer, event_id FROM processed_events WHERE processed_at < $1 LIMIT ${BATCH})`,
      cutoff,
    );
    return { outboxEvents, processedEvents };
  }

  private async inBatches(deleteSql: string, cutoff: Date): Promise<number> {
    let total = 0;
    for (;;) {
      // Through a CTE, so the driver answers with rows (a bare DELETE comes back as [rows, count]).
      const row = await this.db.one<{ n: number }>(
        `WITH gone AS (${deleteSql} RETURNING 1) SELECT count(*)::int AS n FROM gone`,
        [cutoff],
      );
      const deleted = row?.n ?? 0;
      total += deleted;
      if (deleted < BATCH) return total;
    }
  }
}
