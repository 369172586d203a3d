import { EventType } from '@voiceplane/domain';
import { EventTypeRepository } from '@voiceplane/application';
import { Database } from '../../database';
import { num } from '../rows';

const COLUMNS = 'id, user_id, name, duration_minutes, created_at';

function toEventType(r: Record<string, unknown>): EventType {
  return { id: num(r.id), userId: num(r.user_id), name: r.name as string, durationMinutes: num(r.duration_minutes), createdAt: new Date(r.created_at as string) };
}

export class TypeormEventTypeRepository implements EventTypeRepository {
  constructor(private readonly db: Database) {}

  async create(userId: number, eventType: { name: string; durationMinutes: number }): Promise<EventType> {
    const rows = await this.db.query(
      `INSERT INTO event_types (user_id, name, duration_minutes) VALUES ($1, $2, $3) RETURNING ${COLUMNS}`,
      [userId, eventType.name, eventType.durationMinutes],
    );
    return toEventType(rows[0]);
  }

  async listOwned(userId: number): Promise<EventType[]> {
    const rows = await this.db.query(`SELECT ${COLUMNS} FROM event_types WHERE user_id = $1 ORDER BY id DESC`, [userId]);
    return rows.map(toEventType);
  }
}
