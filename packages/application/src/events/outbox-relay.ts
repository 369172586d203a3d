import { MessageBus } from '../ports/message-bus';
import { UnitOfWork } from '../ports/unit-of-work';
import { Clock } from '../ports/clock';
import { Doorbell } from './doorbell';
import { PollingLoop } from './polling-loop';
import { UnpublishedEvents, WorkLogger } from './ports';

export interface OutboxRelayOptions {
  /** Events per transaction. */
  readonly batchSize?: number;
  /** Longest wait between looks at the table when no notification arrives. */
  readonly pollMs?: number;
}

/**
 * Publishes committed outbox events to the bus, oldest first, and marks them published in the same
 * transaction (the same statement) that locked them. A batch the bus does not confirm rolls back and is tried again,
 * so an event is never marked published without being on the bus (at-least-once; consumers
 * de-duplicate by id). Several relays may run: each locks different rows.
 */
export class OutboxRelay {
  private readonly batchSize: number;
  private readonly loop: PollingLoop;

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
    this.loop = new PollingLoop({
      doorbell, logger, pollMs: options.pollMs ?? 1_000, baseBackoffMs: 100, maxBackoffMs: 5_000,
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
    return this.loop.stop();
  }

  /** Publishes one batch; returns how many events it carried. */
  relayOnce(): Promise<number> {
    return this.uow.transaction(async () => {
      // Marked published as they are locked (a round trip less per batch): the mark commits only
      // if the bus confirms, since a refused publish throws and rolls the transaction back.
      const batch = await this.events.claimBatch(this.batchSize, this.clock.now());
      if (batch.length === 0) return 0;
      await this.bus.publish(batch);
      return batch.length;
    });
  }
}
