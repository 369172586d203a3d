import {
  applyStepResult,
  AutomationRun,
  continueRun,
  expressionContext,
  failOnTimeLimit,
  JsonValue,
  nextStep,
  parseDefinition,
  PinnedVersion,
  resumeRun,
  RunTrigger,
  startRun,
  StepResult,
  startStep,
  stepInFlight,
  stepRetryDelayMs,
  timeLimitExceeded,
  waitForStepRetry,
} from '@voiceplane/domain';
import { JobHandler, JobScheduler, WorkLogger } from '../events';
import { Clock } from '../ports';
import { Ids } from '../ports';
import { UnitOfWork } from '../ports';
import { AutomationSteps } from './automation-steps';
import { Automation, AutomationRepository, AutomationRunRepository, AutomationVersion } from './ports';
import { RunLeases } from './run-leases';

/** Job kind: resumes one paused run at its `resume_at`. */
export const AUTOMATION_RESUME_JOB = 'automation.resume';
const KNOWN_VERSIONS_LIMIT = 1_000;
/** Runs stored after their answer are written at most this many to a statement. */
const RUN_WRITE_BATCH = 200;
export const resumeJobKey = (runId: string): string => `automation-resume:${runId}`;

export interface RunRequest {
  readonly trigger: RunTrigger;
  readonly isTest: boolean;
  readonly input: JsonValue;
  readonly retryOfRunId?: string | null;
  /** What started it (`call.ended:<call id>`): a second run for the same key is not created (a unique index). */
  readonly eventId?: string;
  /** Position in a chain of the automation's own calls (`chainAttempt`). */
  readonly attempt?: number;
  /** Given by a caller that must name the run before it ends (a sync webhook reply that times out). */
  readonly runId?: string;
  /**
   * Sync webhook replies and mid-call tools (on a live call's path): the run's insert is grouped
   * with other such runs' into one statement; the answer still waits for its commit.
   */
  readonly storeAfterAnswer?: boolean;
  /**
   * A run its caller is answered from (a retry, a webhook trigger): the caller's result made from
   * the run as stored. The transaction that stores it concludes the caller's use case
   * (`TransactionOptions.concludes`); a grouped write is followed by a transaction of its own.
   */
  readonly concludes?: (run: AutomationRun) => unknown;
}

/** A stored version read back as the engine runs it; a version that no longer parses is a bug, not a refusal. */
export function pinned(version: AutomationVersion): PinnedVersion {
  const parsed = parseDefinition(version.definition);
  if (!parsed.ok) throw new Error(`Version ${version.id} does not hold a readable definition.`);
  return { id: version.id, definition: parsed.value };
}

/**
 * How a drive stores what it does. A run its caller stopped waiting for turns from unstored to
 * held while it runs (`keepUnanswered`), hence the mutable fields.
 */
interface Keeping {
  /** The run is stored and this engine holds its lease: every step is written, retries wait durably. */
  held: boolean;
  /** Answered before its write commits only in a group with others (sync hooks, tools). */
  readonly grouped: boolean;
  /** An unstored run as far as it got: what `keepUnanswered` stores. */
  current?: AutomationRun;
  /** The insert that made an unstored run held; its next writes wait for it. */
  kept?: Promise<unknown>;
  /** The single write of an unstored run, once begun: `keepUnanswered` then waits for it instead. */
  written?: Promise<void>;
  /** Its caller's result, concluded with the run's write while nobody else holds it (`RunRequest.concludes`). */
  readonly concludes?: (run: AutomationRun) => unknown;
}

/** Engine settings; the defaults are production's. */
export interface EngineSettings {
  /** Uniform in [0, 1): the retry jitter. */
  readonly random?: () => number;
  readonly leaseMs?: number;
}

/** Where runs and the automations they belong to are stored, and the transactions around both. */
export interface EngineStores {
  readonly automations: AutomationRepository;
  readonly runs: AutomationRunRepository;
  readonly uow: UnitOfWork;
}

/** How the steps of a run are done now and later: the step handlers and the durable scheduler. */
export interface EngineWork {
  readonly steps: AutomationSteps;
  readonly scheduler: JobScheduler;
}

/**
 * Executes runs: the domain decides the next step and what each result means,
 * this loop performs the steps and stores the run, handing a paused run to the durable scheduler.
 *
 * Runs nobody waits for (assistant events, async hooks, resumed runs) are stored while they run
 * and leased by the engine executing them (`RunLeases`): each step is written when it ends, a
 * failed HTTP attempt waits for its retry as a scheduled job, and a run whose worker is lost is
 * taken over by the sweeper (`AutomationRunSweeper`). Runs a caller waits for (tests, retries,
 * sync hooks, tools) are written once, before their answer.
 */
export class AutomationEngine {
  private readonly versions = new Map<string, PinnedVersion>();
  private readonly background = new Set<Promise<void>>();
  /** Answered runs waiting for their insert; written while no other such insert is in flight (group commit). */
  private readonly unwritten: {
    automationId: string;
    run: AutomationRun;
    written: () => void;
    failed: (e: unknown) => void;
  }[] = [];
  /** Runs executing unstored whose caller may stop waiting (sync hooks), by run id. */
  private readonly unanswered = new Map<string, Keeping>();
  private writing = false;
  readonly leases: RunLeases;
  private readonly random: () => number;
  private readonly automations: AutomationRepository;
  private readonly runs: AutomationRunRepository;
  private readonly uow: UnitOfWork;
  private readonly steps: AutomationSteps;
  private readonly scheduler: JobScheduler;

  constructor(
    stores: EngineStores,
    work: EngineWork,
    private readonly clock: Clock,
    private readonly ids: Ids,
    /** Where a background write that failed is reported. */
    private readonly log: Pick<WorkLogger, 'error'> | null = null,
    settings: EngineSettings = {},
  ) {
    ({ automations: this.automations, runs: this.runs, uow: this.uow } = stores);
    ({ steps: this.steps, scheduler: this.scheduler } = work);
    this.random = settings.random ?? Math.random;
    this.leases = new RunLeases(this.runs, clock, ids.token('wkr_', 16), settings.leaseMs);
  }

  /** A version as runs see it. Versions never change once written, so each is read and parsed once per process. */
  async version(id: string): Promise<PinnedVersion | null> {
    const known = this.versions.get(id);
    if (known) return known;
    const stored = await this.automations.findVersion(id);
    if (stored === null) return null;
    const version = pinned(stored);
    if (this.versions.size >= KNOWN_VERSIONS_LIMIT) this.versions.clear();
    this.versions.set(id, version);
    return version;
  }

  /** Starts a run on `version` and executes it until it ends or pauses; null for an event already handled. */
  async start(automation: Automation, version: PinnedVersion, request: RunRequest): Promise<AutomationRun | null> {
    const next = this.newRun(version, request);
    // A run started by an event is stored first, leased: its key is what makes a redelivery start nothing.
    if (request.eventId !== undefined) {
      if (!(await this.runs.insert(automation.id, next, request.eventId, this.leases.mine()))) return null;
      return this.drive(automation, version, next, { held: true, grouped: false });
    }
    // Any other run is written once, before its answer (a mid-call lookup is on a live call's path, where every write is felt).
    const keeping: Keeping = {
      held: false,
      grouped: request.storeAfterAnswer === true,
      current: next,
      concludes: request.concludes,
    };
    if (!keeping.grouped) return this.drive(automation, version, next, keeping);
    // A caller may stop waiting (a sync reply that timed out): `keepUnanswered` makes the run durable, `settled()` covers it.
    this.unanswered.set(next.id, keeping);
    const running = this.drive(automation, version, next, keeping).finally(() => this.unanswered.delete(next.id));
    this.track(
      running.then(
        () => undefined,
        () => undefined,
      ),
    );
    return running;
  }

  /**
   * A run whose caller stopped waiting (a sync webhook answered 504): stored now as it stands,
   * leased by this engine, and executed from here on like a run nobody waits for — each step
   * written, HTTP retries durable — so a crash of this process leaves it to the sweeper rather
   * than losing it. Resolves once the run is stored.
   */
  async keepUnanswered(automationId: string, runId: string): Promise<void> {
    const keeping = this.unanswered.get(runId);
    if (keeping === undefined) return;
    if (keeping.written) return keeping.written;
    if (keeping.kept) return void (await keeping.kept);
    if (keeping.current === undefined) throw new Error(`Run ${runId} has no state to store.`);
    keeping.held = true;
    this.leases.hold(runId);
    keeping.kept = this.runs.insert(automationId, keeping.current, undefined, this.leases.mine());
    await keeping.kept;
  }

  /**
   * Stores the run as RUNNING, queued for a worker, and schedules its execution in the same
   * transaction (async webhook triggers): once this returns, a crash loses nothing.
   */
  async launch(automation: Automation, version: PinnedVersion, request: RunRequest): Promise<AutomationRun> {
    const next = this.newRun(version, request);
    const concludes = request.concludes;
    await this.uow.transaction(
      async () => {
        await this.runs.insert(automation.id, next, undefined, { owner: null, until: this.clock.now() });
        await this.scheduler.schedule(continueJob(automation.id, next.id, this.clock.now()));
      },
      { concludes: concludes ? () => concludes(next) : false },
    );
    return next;
  }

  /**
   * Executes a run that waits for a worker (queued, or waiting for a step's retry) or whose worker
   * was lost: the lease is taken with a compare-and-set, so of several callers one goes on. Null
   * when there was nothing to take.
   */
  async continue(automationId: string, runId: string): Promise<AutomationRun | null> {
    const claimed = await this.runs.claim(
      automationId,
      runId,
      this.leases.owner,
      this.clock.now(),
      this.leases.until(),
    );
    return claimed === null ? null : this.takeOver(automationId, claimed);
  }

  /** Goes on with a run whose lease this engine has just taken (see `continueRun`). */
  async takeOver(automationId: string, claimed: AutomationRun): Promise<AutomationRun | null> {
    const automation = await this.automations.findById(automationId);
    const version = automation ? await this.version(claimed.versionId) : null;
    if (automation === null || version === null) return null;
    const continued = continueRun(claimed, version, this.clock.now());
    if (!continued.ok) {
      // Not due yet (a retry job run early): leave it to its job.
      await this.runs.saveHeld(automationId, claimed, this.leases.owner, {
        owner: null,
        until: claimed.retryAt ?? this.clock.now(),
      });
      return null;
    }
    return this.drive(automation, version, continued.value.next, { held: true, grouped: false });
  }

  /** Waits for the background work: the writes of runs answered before they were stored. */
  async settled(): Promise<void> {
    while (this.background.size > 0) await Promise.allSettled([...this.background]);
  }

  private track(work: Promise<void>): void {
    const tracked = work.finally(() => this.background.delete(tracked));
    this.background.add(tracked);
  }

  private newRun(version: PinnedVersion, request: RunRequest): AutomationRun {
    return startRun({
      id: request.runId ?? this.ids.token('run_', 22),
      version,
      trigger: request.trigger,
      isTest: request.isTest,
      retryOfRunId: request.retryOfRunId ?? null,
      input: request.input,
      now: this.clock.now(),
      attempt: request.attempt,
    }).next;
  }

  /**
   * Resumes a paused run once it is due. The PAUSED → RUNNING write succeeds for one caller only,
   * so several workers handed the same run resume it once. Null when there was nothing to resume.
   */
  async resume(
    automationId: string,
    runId: string,
    options: { readonly early?: boolean } = {},
  ): Promise<AutomationRun | null> {
    const automation = await this.automations.findById(automationId);
    const run = automation ? await this.runs.find(automationId, runId) : null;
    if (automation === null || run === null || run.status !== 'PAUSED') return null;
    const version = await this.version(run.versionId);
    if (version === null) return null;
    // Early (sandbox resume-now): the run is treated as due now.
    const resumed = resumeRun(options.early ? { ...run, resumeAt: null } : run, version, this.clock.now());
    if (!resumed.ok) return null;
    if (!(await this.runs.saveIfStatus(automationId, resumed.value.next, 'PAUSED', this.leases.mine()))) return null;
    if (options.early) await this.scheduler.cancel([resumeJobKey(runId)]);
    return this.drive(automation, version, resumed.value.next, { held: true, grouped: false });
  }

  private async drive(
    automation: Automation,
    version: PinnedVersion,
    start: AutomationRun,
    keeping: Keeping,
  ): Promise<AutomationRun> {
    if (keeping.held) this.leases.hold(start.id);
    try {
      return await this.execute(automation, version, start, keeping);
    } finally {
      if (keeping.held) this.leases.release(start.id);
    }
  }

  private async execute(
    automation: Automation,
    version: PinnedVersion,
    start: AutomationRun,
    keeping: Keeping,
  ): Promise<AutomationRun> {
    let run = start;
    for (;;) {
      if (timeLimitExceeded(run, this.clock.now())) {
        const stopped = failOnTimeLimit(run, version, this.clock.now());
        if (stopped.ok) run = stopped.value.next;
        break;
      }
      // A step in flight when the run was taken over is executed again: steps are idempotent by run and step.
      let step = stepInFlight(version.definition, run);
      if (step === null) {
        step = nextStep(version.definition, run);
        if (step === null) break;
        const started = startStep(run, version);
        if (!started.ok) break;
        run = started.value.next;
        if (!keeping.held) keeping.current = run;
      }
      const actor = { userId: automation.userId, isTest: run.isTest, runId: run.id, stepName: step.name };
      const result = await this.steps.execute(step, expressionContext(run), actor);
      // Its caller stopped waiting during the step: the run is being stored, and is held from here on.
      if (keeping.kept) await keeping.kept;
      const retryIn = keeping.held ? stepRetryDelayMs(run, version, result, this.random()) : null;
      if (retryIn !== null && result.kind === 'failed' && result.attempt) {
        const retryAt = new Date(this.clock.now().getTime() + retryIn);
        const waiting = waitForStepRetry(run, version, result.attempt, retryAt, this.clock.now());
        if (!waiting.ok) throw new Error(`Run ${run.id} refused its retry: ${waiting.error}`);
        await this.waitForRetry(automation.id, waiting.value.next, retryAt);
        return waiting.value.next;
      }
      // Attempts are kept for the runs that retry them; a run a caller waits for tries once.
      const kept: StepResult =
        keeping.held || result.kind === 'paused_at_delay' ? result : { ...result, attempt: undefined };
      const applied = applyStepResult(run, version, kept, this.clock.now());
      if (!applied.ok) throw new Error(`Run ${run.id} refused its step result: ${applied.error}`);
      run = applied.value.next;
      if (!keeping.held) keeping.current = run;
      if (run.status !== 'RUNNING') break;
      // Each finished step is written: a worker that takes the run over goes on after it.
      if (keeping.held && !(await this.runs.saveHeld(automation.id, run, this.leases.owner, this.leases.mine())))
        return run;
    }
    await this.store(automation.id, run, keeping);
    return run;
  }

  /** A failed attempt to be tried again: the run waits without a worker, its retry is a scheduled job. */
  private async waitForRetry(automationId: string, run: AutomationRun, retryAt: Date): Promise<void> {
    await this.uow.transaction(async () => {
      if (await this.runs.saveHeld(automationId, run, this.leases.owner, { owner: null, until: retryAt })) {
        await this.scheduler.schedule(continueJob(automationId, run.id, retryAt));
      }
    });
  }

  private async store(automationId: string, run: AutomationRun, keeping: Keeping): Promise<void> {
    if (keeping.held) return this.write(automationId, run, keeping);
    keeping.written = this.write(automationId, run, keeping);
    return keeping.written;
  }

  private async write(automationId: string, run: AutomationRun, keeping: Keeping): Promise<void> {
    // A run held since its caller stopped waiting is no longer the answer of that caller.
    const concludes = !keeping.held && keeping.concludes ? () => keeping.concludes!(run) : false;
    if (run.status === 'PAUSED' && run.resumeAt) {
      const paused = run;
      await this.uow.transaction(
        async () => {
          if (keeping.held) {
            if (!(await this.runs.saveHeld(automationId, paused, this.leases.owner, null))) return;
          } else {
            await this.runs.insert(automationId, paused);
          }
          await this.scheduler.schedule({
            kind: AUTOMATION_RESUME_JOB,
            key: resumeJobKey(paused.id),
            payload: { automation_id: automationId, run_id: paused.id },
            runAt: paused.resumeAt as Date,
          });
        },
        { concludes },
      );
    } else if (keeping.held) {
      await this.runs.saveHeld(automationId, run, this.leases.owner, null);
    } else if (keeping.grouped) {
      await new Promise<void>((written, failed) => {
        this.unwritten.push({ automationId, run, written, failed });
        if (!this.writing) this.track(this.writeAnswered());
      });
      // Grouped with other runs' writes, so its caller's result is concluded right after, alone.
      if (concludes) await this.uow.transaction(async () => undefined, { concludes });
    } else {
      await this.uow.transaction(() => this.runs.insert(automationId, run), { concludes });
    }
  }

  /**
   * Under load many answered runs pile up while one insert is in flight; they go in the next
   * statement together, so the database sees one write per batch rather than one per request,
   * and each answer still waits for its own run's commit.
   */
  private async writeAnswered(): Promise<void> {
    this.writing = true;
    try {
      while (this.unwritten.length > 0) {
        const batch = this.unwritten.splice(0, RUN_WRITE_BATCH);
        try {
          await this.runs.insertMany(batch);
          for (const entry of batch) entry.written();
        } catch (e) {
          this.log?.error({ err: e, runIds: batch.map((b) => b.run.id) }, 'storing answered automation runs failed');
          for (const entry of batch) entry.failed(e);
        }
      }
    } finally {
      this.writing = false;
    }
  }
}

/** Job kind: a run waiting for a worker (a queued async hook run, a step's retry) is executed. */
export const AUTOMATION_CONTINUE_JOB = 'automation.continue';
export const continueJobKey = (runId: string): string => `automation-continue:${runId}`;

function continueJob(automationId: string, runId: string, runAt: Date) {
  return {
    kind: AUTOMATION_CONTINUE_JOB,
    key: continueJobKey(runId),
    payload: { automation_id: automationId, run_id: runId },
    runAt,
  };
}

/** The workers' side of runs waiting for one. */
export function automationContinueJobs(engine: AutomationEngine, log: WorkLogger): JobHandler {
  return {
    kind: AUTOMATION_CONTINUE_JOB,
    handle: async (job) => {
      const { automation_id: automationId, run_id: runId } = job.payload as { automation_id: string; run_id: string };
      if ((await engine.continue(automationId, runId)) === null)
        log.info({ runId }, 'nothing to continue: the run was taken elsewhere or deleted');
    },
  };
}

/** The scheduler's side of paused runs. */
export function automationResumeJobs(engine: AutomationEngine, log: WorkLogger): JobHandler {
  return {
    kind: AUTOMATION_RESUME_JOB,
    handle: async (job) => {
      const { automation_id: automationId, run_id: runId } = job.payload as { automation_id: string; run_id: string };
      const resumed = await engine.resume(automationId, runId);
      if (resumed === null) log.info({ runId }, 'nothing to resume: the run was resumed elsewhere or deleted');
    },
  };
}
