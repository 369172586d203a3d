import { Clock, Ids, NewOutboxEvent, Outbox } from '@voiceplane/application';
import { Database } from '../database';
import type { OutboxNotifier } from '../outbox/outbox-notifier';

/**
 * Events are stamped with the application's clock, like every row they are compared with
 * (a switch-off event cancels only deliveries created up to its `occurred_at`).
 */
export class TypeormOutbox implements Outbox {
  constructor(
    private readonly db: Database,
    private readonly ids: Ids,
    private readonly clock: Clock,
    /** Without one, relays find new events by polling. */
    private readonly notifier?: OutboxNotifier,
  ) {}

  async add(events: readonly NewOutboxEvent[]): Promise<string[]> {
    if (!this.db.inTransaction) throw new Error('Outbox.add must run inside a transaction');
    const ids = events.map(() => this.ids.token('evt_', 22));
    if (events.length === 0) return ids;
    const values = events.map((_, i) => `($${i * 3 + 2}, $${i * 3 + 3}, $${i * 3 + 4}, $1)`).join(', ');
    const params = [this.clock.now(), ...events.flatMap((e, i) => [ids[i], e.topic, JSON.stringify(e.payload)])];
    await this.db.query(`INSERT INTO outbox_events (id, topic, payload, occurred_at) VALUES ${values}`, params);
    if (this.notifier) this.db.afterCommit(() => this.notifier!.notify());
    return ids;
  }
}
