import { BusHandler, BusMessage } from '@voiceplane/application';
import { InProcessBroker, QueuedMessage } from './in-process-broker';
import { SubscriptionPolicy } from '@voiceplane/application';

/**
 * One consumer attached to its queue in this bus: runs at most `prefetch` handlers at a time,
 * schedules retries and dead-letters exhausted messages.
 */
export class LocalSubscription {
  private readonly running = new Set<Promise<void>>();
  private readonly retryTimers = new Map<NodeJS.Timeout, QueuedMessage>();
  private readonly unwatch: () => void;
  private pumpScheduled?: NodeJS.Immediate;
  private stopping = false;

  constructor(
    private readonly broker: InProcessBroker,
    private readonly handler: BusHandler,
    private readonly policy: SubscriptionPolicy,
  ) {
    this.unwatch = broker.watch(policy.consumer, () => this.schedulePump());
    this.schedulePump();
  }

  /** Stops taking messages, lets running handlers finish, and hands pending retries back to the queue. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.unwatch();
    if (this.pumpScheduled) clearImmediate(this.pumpScheduled);
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
    for (const [timer, message] of this.retryTimers) {
      clearTimeout(timer);
      this.broker.requeue(this.policy.consumer, message);
    }
    this.retryTimers.clear();
  }

  // Handlers start on a later turn of the event loop, never inside `publish()`: a handler that
  // publishes must not re-enter the publisher, and callers see the same ordering as with a broker.
  private schedulePump(): void {
    if (this.stopping || this.pumpScheduled) return;
    this.pumpScheduled = setImmediate(() => {
      this.pumpScheduled = undefined;
      this.pump();
    });
  }

  private pump(): void {
    while (!this.stopping && this.running.size < this.policy.prefetch) {
      const queued = this.broker.take(this.policy.consumer);
      if (!queued) return;
      const run: Promise<void> = this.deliver(queued).finally(() => {
        this.running.delete(run);
        this.schedulePump();
      });
      this.running.add(run);
    }
  }

  private async deliver(queued: QueuedMessage): Promise<void> {
    const message = JSON.parse(queued.body) as BusMessage;
    try {
      await this.handler(message);
      queued.settlement?.settled();
    } catch (error) {
      this.handleFailure(queued, message, error);
    }
  }

  private handleFailure(queued: QueuedMessage, message: BusMessage, error: unknown): void {
    const failedAttempts = queued.failedAttempts + 1;
    if (failedAttempts > this.policy.maxRetries) {
      this.broker.deadLetter(this.policy.consumer, { message, attempts: failedAttempts, lastError: describe(error) });
      queued.settlement?.settled();
      return;
    }
    const retry: QueuedMessage = { body: queued.body, failedAttempts, settlement: queued.settlement };
    if (this.stopping) {
      this.broker.requeue(this.policy.consumer, retry);
      return;
    }
    const timer = setTimeout(() => {
      this.retryTimers.delete(timer);
      this.broker.requeue(this.policy.consumer, retry);
    }, this.policy.retryDelayMs);
    this.retryTimers.set(timer, retry);
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
