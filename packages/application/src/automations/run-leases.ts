import { WorkLogger } from '../events';
import { Clock } from '../ports';
import type { AutomationRun } from '@voiceplane/domain';
import { AutomationRunRepository, RunLease } from './ports';

/** A worker holds a run for this long without renewing; it renews every third of it. */
export const RUN_LEASE_MS = 60_000;
/**
 * How often the sweeper looks for runs whose worker was lost (a lost run waits at most a lease and
 * one interval; an idle server looks once a minute), and how many it takes at a time.
 */
export const RUN_SWEEP_INTERVAL_MS = 60_000;
const RUN_SWEEP_BATCH = 20;

/**
 * The leases one engine holds on the runs it executes: renewed by a heartbeat while any is held,
 * so a lease lapses only when the process stops answering (crash, kill, frozen event loop).
 */
export class RunLeases {
  private readonly held = new Set<string>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly runs: AutomationRunRepository,
    private readonly clock: Clock,
    /** This engine's lease owner id. */
    readonly owner: string,
    private readonly leaseMs = RUN_LEASE_MS,
  ) {}

  until(): Date {
    return new Date(this.clock.now().getTime() + this.leaseMs);
  }

  /** A fresh lease for this engine. */
  mine(): RunLease {
    return { owner: this.owner, until: this.until() };
  }

  hold(runId: string): void {
    this.held.add(runId);
    if (this.timer === null) {
      this.timer = setInterval(
        () => void this.beat().catch(() => undefined),
        Math.max(1, Math.floor(this.leaseMs / 3)),
      );
      this.timer.unref();
    }
  }

  release(runId: string): void {
    this.held.delete(runId);
    if (this.held.size === 0 && this.timer !== null) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  /** Renews every lease this engine holds (the heartbeat). */
  beat(): Promise<void> {
    return this.runs.heartbeat(this.owner, [...this.held], this.until());
  }
}

/**
 * Finds running runs whose lease lapsed (their worker was lost, or a queued run or due retry whose
 * job did not run) and hands each to its engine: resumed from the step in flight, or failed as
 * `worker_lost` past its execution limit. Claims are compare-and-set with SKIP LOCKED, so of
 * several sweepers on several instances each run goes to exactly one.
 */
/** What the sweeper needs of the engine (the AutomationEngine): its lease, and taking a run over. */
export interface RunTakeOver {
  readonly leases: RunLeases;
  takeOver(automationId: string, run: AutomationRun): Promise<unknown>;
}

export class AutomationRunSweeper {
  constructor(
    private readonly runs: AutomationRunRepository,
    private readonly engine: RunTakeOver,
    private readonly clock: Clock,
    private readonly log: Pick<WorkLogger, 'error' | 'warn'>,
  ) {}

  /** One pass; answers how many runs it took over. */
  async sweep(): Promise<number> {
    const now = this.clock.now();
    const lapsed = await this.runs.claimLapsed(
      this.engine.leases.owner,
      now,
      this.engine.leases.until(),
      RUN_SWEEP_BATCH,
    );
    await Promise.all(
      lapsed.map(async ({ automationId, run }) => {
        this.log.warn({ runId: run.id, automationId }, 'taking over an automation run whose worker was lost');
        await this.engine
          .takeOver(automationId, run)
          .catch((e: unknown) => this.log.error({ err: e, runId: run.id }, 'taking over an automation run failed'));
      }),
    );
    return lapsed.length;
  }
}
