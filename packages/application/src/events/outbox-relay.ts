import { MessageBus } from '../ports';
import { UnitOfWork } from '../ports';
import { Clock } from '../ports';
import { Doorbell } from './doorbell';
import { PollingLoop } from './polling-loop';
import { UnpublishedEvents, WorkLogger } from './ports';

export interface OutboxRelayOptions {
  /** Events per transaction. */
  readonly batchSize?: number;
  /** Longest wait between looks at the table when no notification arrives. */
  readonly pollMs?: number;
  /**
   * On a bus that loses what it holds with the process (`publishSettled`): how long an event may
   * stay with its consumers before it is published again (default 5 minutes, far beyond any
   * consumer's retries), and how often that is looked for (default 30 s).
   */
  readonly unsettledAfterMs?: number;
  readonly unsettledSweepMs?: number;
}

/**
 * Publishes committed outbox events to the bus, oldest first, and marks them published in the same
 * transaction (the same statement) that locked them. A batch the bus does not confirm rolls back and is tried again,
 * so an event is never marked published without being on the bus (at-least-once; consumers
 * de-duplicate by id) — or, on a bus that offers `publishSettled`, without its consumers having
 * handled it. Several relays may run: each locks different rows.
 */
export class OutboxRelay {
  private readonly batchSize: number;
  private readonly loop: PollingLoop;
  private readonly unsettledAfterMs: number;
  private readonly unsettledSweepMs: number;
  private lastSweep = 0;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly events: UnpublishedEvents,
    private readonly bus: MessageBus,
    private readonly clock: Clock,
    /** Rung when new events commit (LISTEN/NOTIFY); without it the relay polls. */
    readonly doorbell: Doorbell,
    private readonly logger: WorkLogger,
    options: OutboxRelayOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 200;
    this.unsettledAfterMs = options.unsettledAfterMs ?? 5 * 60_000;
    this.unsettledSweepMs = options.unsettledSweepMs ?? 30_000;
    this.loop = new PollingLoop({
      doorbell,
      logger,
      pollMs: options.pollMs ?? 1_000,
      baseBackoffMs: 100,
      maxBackoffMs: 5_000,
      failureMessage: 'outbox relay could not publish; events stay unpublished and are retried',
      // A full batch means more are probably waiting.
      step: async () => (await this.relayOnce()) >= this.batchSize,
    });
  }

  start(): void {
    this.loop.start();
  }

  /** Finishes the batch in hand, then stops. */
  stop(): Promise<void> {
    // Settlements still outstanding are not waited for: the bus closes after the relay, and what its
    // consumers did not finish stays unsettled, to be published again.
    return this.loop.stop();
  }

  /** Publishes one batch; returns how many events it carried. */
  async relayOnce(): Promise<number> {
    const settling = this.bus.publishSettled !== undefined;
    if (settling) await this.reopenOverdue();
    let settled: Promise<void> | null = null;
    const batch = await this.uow.transaction(async () => {
      // Marked published as they are locked (a round trip less per batch): the mark commits only
      // if the bus confirms, since a refused publish throws and rolls the transaction back.
      const claimed = await this.events.claimBatch(this.batchSize, this.clock.now(), { unsettled: settling });
      if (claimed.length === 0) return claimed;
      if (settling) settled = (await this.bus.publishSettled!(claimed)).settled;
      else await this.bus.publish(claimed);
      return claimed;
    });
    if (settled !== null)
      this.recordWhenSettled(
        settled,
        batch.map((m) => m.id),
      );
    return batch.length;
  }

  /**
   * In-process consumers hold events in memory only: once they are done the events are settled;
   * a bus closed first (shutdown) leaves them unsettled, to be published again.
   */
  private recordWhenSettled(settled: Promise<void>, ids: string[]): void {
    void settled
      .then(
        () => this.events.settled(ids),
        () => undefined,
      )
      .catch((e: unknown) =>
        this.logger.warn({ err: e }, 'could not record settled events; they will be published again'),
      );
  }

  /** Events a process took to its in-process consumers and never settled (it died): published again. */
  private async reopenOverdue(): Promise<void> {
    const now = this.clock.now().getTime();
    if (now - this.lastSweep < this.unsettledSweepMs) return;
    this.lastSweep = now;
    const reopened = await this.events.reopenUnsettled(new Date(now - this.unsettledAfterMs));
    if (reopened > 0)
      this.logger.warn({ reopened }, 'events left unsettled by in-process consumers are published again');
  }
}
