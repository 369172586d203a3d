import type { WorkLogger } from '@voiceplane/application';
import type { Database } from '../database';
import { NotificationBell, OUTBOX_CHANNEL } from './notifications';

/**
 * Wakes the relays after an outbox write has committed: the one in this process directly, or, in a
 * process without one (the api beside apps/worker), all of them by NOTIFY. The NOTIFY goes out in a statement of its
 * own, after the writer's commit: a NOTIFY inside the writer's transaction (as the first trigger
 * did) serialises the commits of every event-raising transaction (migration OutboxPolling). At
 * most one is in flight per process; writes that commit meanwhile are covered by one more after
 * it, so a burst of writers costs a handful of notifications, not one each.
 */
export class OutboxNotifier {
  private inFlight = false;
  private again = false;
  private readonly local: NotificationBell[] = [];

  constructor(private readonly db: Database, private readonly logger: WorkLogger) {}

  /** A relay in this process is rung directly too: no round trip, and it works where NOTIFY does not (PGlite). */
  wakeAlso(bell: NotificationBell): void {
    if (!this.local.includes(bell)) this.local.push(bell);
  }

  notify(): void {
    for (const bell of this.local) bell.ring();
    // A relay in this process takes the new events itself (relays skip each other's locked rows):
    // waking the others as well only makes them look at an empty table. Their poll still finds
    // anything left should this relay stop or stall. Measured: 366 notifications and ~200 empty
    // relay transactions per 2,400 deliveries went away.
    if (this.local.length > 0) return;
    if (this.inFlight) {
      this.again = true;
      return;
    }
    this.inFlight = true;
    this.again = false;
    this.db.dataSource.query(`SELECT pg_notify('${OUTBOX_CHANNEL}', '')`)
      // The relay's poll finds the events anyway; a lost wake-up only costs latency.
      .catch((e: Error) => this.logger.warn({ error: e.message }, 'could not notify the outbox relays'))
      .finally(() => {
        this.inFlight = false;
        if (this.again) this.notify();
      });
  }
}
