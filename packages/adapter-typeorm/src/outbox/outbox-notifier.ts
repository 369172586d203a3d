import type { WorkLogger } from '@voiceplane/application';
import type { Database } from '../database';
import { JOBS_CHANNEL, NotificationBell, OUTBOX_CHANNEL } from './notifications';

/**
 * Wakes the loops that take up work after a write has committed: the one in this process directly,
 * or, in a process without one (the api beside apps/worker), all of them by NOTIFY. The NOTIFY goes
 * out in a statement of its own, after the writer's commit: a NOTIFY inside the writer's transaction
 * (as the first outbox trigger did) serialises the commits of every writing transaction (migration
 * OutboxPolling). At most one is in flight per process; writes that commit meanwhile are covered by
 * one more after it, so a burst of writers costs a handful of notifications, not one each.
 */
export class CommitNotifier {
  private inFlight = false;
  private again = false;
  private readonly local: NotificationBell[] = [];

  constructor(
    private readonly db: Database,
    private readonly channel: string,
    private readonly logger: WorkLogger,
  ) {}

  /** A loop in this process is rung directly too: no round trip, and it works where NOTIFY does not (PGlite). */
  wakeAlso(bell: NotificationBell): void {
    if (!this.local.includes(bell)) this.local.push(bell);
  }

  notify(): void {
    for (const bell of this.local) bell.ring();
    // A loop in this process takes the new work itself (loops skip each other's locked rows):
    // waking the others as well only makes them look at an empty table. Their safety poll still
    // finds anything left should this loop stop or stall. Measured on the outbox: 366
    // notifications and ~200 empty relay transactions per 2,400 deliveries went away.
    if (this.local.length > 0) return;
    if (this.inFlight) {
      this.again = true;
      return;
    }
    this.inFlight = true;
    this.again = false;
    this.db.dataSource
      .query<unknown>(`SELECT pg_notify('${this.channel}', '')`)
      // The loops' safety poll finds the work anyway; a lost wake-up only costs latency.
      .catch((e: Error) =>
        this.logger.warn(
          { error: e.message, channel: this.channel },
          'could not notify the loops that take up new work',
        ),
      )
      .finally(() => {
        this.inFlight = false;
        if (this.again) this.notify();
      });
  }
}

/** Rings the outbox relays after an outbox write commits. */
export class OutboxNotifier extends CommitNotifier {
  constructor(db: Database, logger: WorkLogger) {
    super(db, OUTBOX_CHANNEL, logger);
  }
}

/**
 * Rings the job runners after a job is scheduled, whatever its due time: a runner sleeps until the
 * earliest due job it knows of, so a job due sooner than that must wake it to be seen in time. (The
 * scheduled_jobs trigger NOTIFYs jobs due at once from any writer, notifier or not.)
 */
export class JobsNotifier extends CommitNotifier {
  constructor(db: Database, logger: WorkLogger) {
    super(db, JOBS_CHANNEL, logger);
  }
}
