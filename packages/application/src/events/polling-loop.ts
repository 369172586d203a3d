import { describeError, Doorbell, sleep } from './doorbell';
import { WorkLogger } from './ports';

export interface PollingLoopOptions {
  readonly doorbell: Doorbell;
  /** Longest wait between steps when no bell rings. */
  readonly pollMs: number;
  /** Backoff after a failed step: `baseBackoffMs · 2^failures`, capped at `maxBackoffMs`. */
  readonly baseBackoffMs: number;
  readonly maxBackoffMs: number;
  readonly logger: WorkLogger;
  /** Logged (warn) after each failed step. */
  readonly failureMessage: string;
  /** One unit of work; true when more is waiting, so the loop goes again without waiting. */
  readonly step: () => Promise<boolean>;
  /**
   * After a step with nothing more waiting: how long until work is known to be due (the job
   * runner's next due job). The loop sleeps for that, or `pollMs` if shorter; a bell still wakes it.
   */
  readonly idleWaitMs?: () => number;
}

/**
 * The lifecycle shared by the background workers that poll the database (outbox relay, job
 * runner): start once, wait for the doorbell, the next known due time or the poll interval between idle steps, back off
 * exponentially while steps fail, and stop after the step in hand.
 */
export class PollingLoop {
  private running?: Promise<void>;
  private stopping = false;

  constructor(private readonly options: PollingLoopOptions) {}

  get isStopping(): boolean {
    return this.stopping;
  }

  start(): void {
    this.stopping = false;
    this.running ??= this.loop().finally(() => (this.running = undefined));
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.options.doorbell.ring();
    await this.running;
  }

  private async loop(): Promise<void> {
    const o = this.options;
    let failures = 0;
    while (!this.stopping) {
      try {
        const more = await o.step();
        failures = 0;
        if (!more) await o.doorbell.wait(Math.max(0, Math.min(o.pollMs, o.idleWaitMs?.() ?? o.pollMs)));
      } catch (error) {
        failures++;
        const delayMs = Math.min(o.maxBackoffMs, o.baseBackoffMs * 2 ** Math.min(failures, 6));
        o.logger.warn({ error: describeError(error), failures, retryInMs: delayMs }, o.failureMessage);
        await sleep(delayMs);
      }
    }
  }
}
