import { EventType } from '@voiceplane/domain';
import { EventTypeRepository } from '@voiceplane/application';
import { Database } from '../../database';
import { EventTypeRecord } from '../../records';
import { num } from '../rows';

const COLUMNS = 'id, user_id, name, duration_minutes, created_at';

/** Every column of the record: the rows below are whole `EventTypeRecord`s. */
function toEventType(r: EventTypeRecord): EventType {
  return {
    id: num(r.id),
    userId: num(r.user_id),
    name: r.name,
    durationMinutes: r.duration_minutes,
    createdAt: r.created_at,
  };
}

export class TypeormEventTypeRepository implements EventTypeRepository {
  constructor(private readonly db: Database) {}

  async create(userId: number, eventType: { name: string; durationMinutes: number }): Promise<EventType> {
    const rows = await this.db.query<EventTypeRecord>(
      `INSERT INTO event_types (user_id, name, duration_minutes) VALUES ($1, $2, $3) RETURNING ${COLUMNS}`,
      [userId, eventType.name, eventType.durationMinutes],
    );
    return toEventType(rows[0]);
  }

  async listOwned(userId: number): Promise<EventType[]> {
    const rows = await this.db.query<EventTypeRecord>(
      `SELECT ${COLUMNS} FROM event_types WHERE user_id = $1 ORDER BY id DESC`,
      [userId],
    );
    return rows.map(toEventType);
  }
}
