import { EventType } from '@voiceplane/domain';
import { Clock, EventTypeRepository } from '@voiceplane/application';
import { copy } from './copy';

/**
 * Event types in memory, with the semantics of the PostgreSQL repository (see the event-type
 * contract); the creation time the database takes from `now()` comes from `clock`.
 */
export class InMemoryEventTypeRepository implements EventTypeRepository {
  private readonly rows: EventType[] = [];

  constructor(private readonly clock: Clock) {}

  async create(userId: number, eventType: { name: string; durationMinutes: number }): Promise<EventType> {
    const row: EventType = {
      id: this.rows.length + 1,
      userId,
      name: eventType.name,
      durationMinutes: eventType.durationMinutes,
      createdAt: this.clock.now(),
    };
    this.rows.push(row);
    return copy(row);
  }

  /** Newest first. */
  async listOwned(userId: number): Promise<EventType[]> {
    return this.rows
      .filter((r) => r.userId === userId)
      .sort((a, b) => b.id - a.id)
      .map(copy);
  }

  /** Every event type of every account, oldest first: what a test checks was (not) written. */
  all(): EventType[] {
    return this.rows.map(copy);
  }
}
