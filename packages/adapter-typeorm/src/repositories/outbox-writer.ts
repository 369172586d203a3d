import { Ids, NewOutboxEvent, Outbox } from '@voiceplane/application';
import { Database } from '../database';

export class TypeormOutbox implements Outbox {
  constructor(private readonly db: Database, private readonly ids: Ids) {}

  async add(events: readonly NewOutboxEvent[]): Promise<string[]> {
    if (!this.db.inTransaction) throw new Error('Outbox.add must run inside a transaction');
    const ids = events.map(() => this.ids.token('evt_', 22));
    if (events.length === 0) return ids;
    const values = events.map((_, i) => `($${i * 3 + 1}, $${i * 3 + 2}, $${i * 3 + 3})`).join(', ');
    const params = events.flatMap((e, i) => [ids[i], e.topic, JSON.stringify(e.payload)]);
    await this.db.query(`INSERT INTO outbox_events (id, topic, payload) VALUES ${values}`, params);
    return ids;
  }
}
