import { ProcessedEvents } from '@voiceplane/application';
import { Database } from '../database';

export class PostgresProcessedEvents implements ProcessedEvents {
  constructor(private readonly db: Database) {}

  async record(consumer: string, eventId: string): Promise<boolean> {
    // Raw SQL: ON CONFLICT DO NOTHING RETURNING tells, in one statement, whether this consumer is the first to see the event.
    const rows = await this.db.query<{ inserted: number }>(
      `INSERT INTO processed_events (consumer, event_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING 1 AS inserted`,
      [consumer, eventId],
    );
    return rows.length === 1;
  }
}
