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
    const insert = this.insertStatement(events, 1);
    if (events.length === 0) return insert.ids;
    await this.db.query(insert.sql, insert.params);
    this.written();
    return insert.ids;
  }

  /**
   * The INSERT of `events` for a repository that writes them in the same statement as its own row
   * (a data-modifying CTE: atomic even without a transaction block); parameters numbered from `first`.
   * Call `written()` once that statement has run.
   */
  insertStatement(events: readonly NewOutboxEvent[], first: number): { sql: string; params: unknown[]; ids: string[] } {
    const ids = events.map(() => this.ids.token('evt_', 22));
    const values = events
      .map((_, i) => `($${first + i * 3 + 1}, $${first + i * 3 + 2}, $${first + i * 3 + 3}, $${first})`)
      .join(', ');
    const params = [this.clock.now(), ...events.flatMap((e, i) => [ids[i], e.topic, JSON.stringify(e.payload)])];
    return { sql: `INSERT INTO outbox_events (id, topic, payload, occurred_at) VALUES ${values}`, params, ids };
  }

  /** Wakes the relays once the current transaction (if any) has committed. */
  written(): void {
    if (this.notifier) this.db.afterCommit(() => this.notifier!.notify());
  }
}
