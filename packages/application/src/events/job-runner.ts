import { Clock } from '../ports';
import { Ids } from '../ports';
import { describeError, Doorbell } from './doorbell';
import { PollingLoop } from './polling-loop';
import { ClaimedJob, JobHandler, JobQueue, WorkLogger } from './ports';

export interface JobRunnerOptions {
  /** Jobs run at once by this process. */
  readonly concurrency?: number;
  /** How long a claim holds; a job whose runner died is claimed again after this. */
  readonly leaseMs?: number;
  /**
   * Longest wait between looks at the table (a safety net): between them the runner sleeps until
   * the next due job, and is woken by its doorbell when a job is scheduled.
   */
  readonly pollMs?: number;
  /** Failed runs of one job before it is buried. */
  readonly maxAttempts?: number;
}

const MIN_WAIT_MS = 5;

/**
 * Runs due jobs from the database with handlers registered by kind. Claims are leases: a runner
 * that dies mid-job (even by SIGKILL) loses its claim when the lease runs out, and another runner
 * takes the job. A handler that throws is retried with exponential backoff.
 */
export class JobRunner {
  private readonly handlers = new Map<string, JobHandler>();
  private readonly concurrency: number;
  private readonly leaseMs: number;
  private readonly maxAttempts: number;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly loop: PollingLoop;
  /** When the earliest job not yet claimable becomes due, as of the last look; null when none waits. */
  private nextDue: Date | null = null;

  constructor(
    private readonly queue: JobQueue,
    handlers: readonly JobHandler[],
    private readonly clock: Clock,
    private readonly ids: Ids,
    readonly doorbell: Doorbell,
    private readonly logger: WorkLogger,
    options: JobRunnerOptions = {},
  ) {
    for (const handler of handlers) {
      if (this.handlers.has(handler.kind)) throw new Error(`two handlers for job kind "${handler.kind}"`);
      this.handlers.set(handler.kind, handler);
    }
    this.concurrency = options.concurrency ?? 16;
    this.leaseMs = options.leaseMs ?? 60_000;
    this.maxAttempts = options.maxAttempts ?? 20;
    this.loop = new PollingLoop({
      doorbell,
      logger,
      pollMs: options.pollMs ?? 1_000,
      baseBackoffMs: 200,
      maxBackoffMs: 10_000,
      failureMessage: 'scheduler could not claim jobs',
      step: () => this.step(),
      // A few ms at least: a due job another runner is claiming right now (skipped, yet counted as
      // due) must not spin the loop.
      idleWaitMs: () =>
        this.nextDue === null ? Infinity : Math.max(MIN_WAIT_MS, this.nextDue.getTime() - this.clock.now().getTime()),
    });
  }

  start(): void {
    this.loop.start();
  }

  /** Takes no new jobs and waits for the ones in hand. */
  async stop(): Promise<void> {
    await this.loop.stop();
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** Claims and runs what is due now, up to the free slots; returns how many jobs were claimed. */
  async runDue(): Promise<number> {
    const free = this.concurrency - this.inFlight.size;
    if (free <= 0) return 0;
    const now = this.clock.now();
    const jobs = await this.queue.claimDue(
      now,
      free,
      new Date(now.getTime() + this.leaseMs),
      this.ids.token('lease_', 22),
    );
    for (const job of jobs) this.track(this.run(job));
    return jobs.length;
  }

  /** One turn of the loop: wait for a free slot, or claim; true when more may be due at once. */
  private async step(): Promise<boolean> {
    if (this.inFlight.size >= this.concurrency) {
      await Promise.race(this.inFlight);
      return true;
    }
    const free = this.concurrency - this.inFlight.size;
    if ((await this.runDue()) >= free) return true;
    // Asked after the claim, so a job that fell due in between is answered as due now (wait 0).
    this.nextDue = await this.queue.nextDueAt();
    return false;
  }

  private track(work: Promise<void>): void {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
  }

  private async run(job: ClaimedJob): Promise<void> {
    try {
      const handler = this.handlers.get(job.kind);
      if (!handler) throw new Error(`no handler for job kind "${job.kind}" in this process`);
      await handler.handle(job);
      await this.queue.complete(job);
    } catch (error) {
      await this.fail(job, describeError(error)).catch((e) =>
        this.logger.error(
          { jobId: job.id, error: describeError(e) },
          'could not record a failed job; its lease will expire',
        ),
      );
    }
  }

  private async fail(job: ClaimedJob, error: string): Promise<void> {
    const now = this.clock.now();
    if (job.attempts >= this.maxAttempts) {
      this.logger.error(
        { jobId: job.id, kind: job.kind, attempts: job.attempts, error },
        'job failed for the last time; buried',
      );
      await this.queue.bury(job, now, error);
      return;
    }
    const delayMs = Math.min(600_000, 1_000 * 2 ** Math.min(job.attempts, 10));
    this.logger.warn(
      { jobId: job.id, kind: job.kind, attempts: job.attempts, error, retryInMs: delayMs },
      'job failed; it will run again',
    );
    await this.queue.retry(job, new Date(now.getTime() + delayMs), error);
    // The loop may be asleep until a later job (or the lease end of this one): the retry is sooner.
    this.doorbell.ring();
  }
}
