import {
  applyStepResult, AutomationRun, executePureStep, expressionContext, failOnTimeLimit, JsonValue, nextStep, parseDefinition, PinnedVersion,
  resolveStepConfig, resumeRun, RunTrigger, startRun, startStep, timeLimitExceeded, wiringFailure,
} from '@voiceplane/domain';
import { JobHandler, JobScheduler, WorkLogger } from '../events/ports';
import { Clock } from '../ports/clock';
import { Ids } from '../ports/ids';
import { UnitOfWork } from '../ports/unit-of-work';
import { AutomationSteps } from './automation-steps';
import { Automation, AutomationRepository, AutomationRunRepository, AutomationVersion } from './ports';

/** Job kind: resumes one paused run at its `resume_at` (CONTRACT §10.12). */
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
   * The run is answered before it is stored (sync webhook replies, mid-call tools: on a live call's
   * path). Its write completes in the background; `settled()` waits for it.
   */
  readonly storeAfterAnswer?: boolean;
}

/** A stored version read back as the engine runs it; a version that no longer parses is a bug, not a refusal. */
export function pinned(version: AutomationVersion): PinnedVersion {
  const parsed = parseDefinition(version.definition);
  if (!parsed.ok) throw new Error(`Version ${version.id} does not hold a readable definition.`);
  return { id: version.id, definition: parsed.value };
}

/**
 * Executes runs (CONTRACT §10.1): the domain decides the next step and what each result means,
 * this loop performs the steps and stores the run when it ends or pauses, handing a paused run to
 * the durable scheduler.
 */
export class AutomationEngine {
  private readonly versions = new Map<string, PinnedVersion>();
  private readonly background = new Set<Promise<void>>();
  /** Answered runs waiting for their insert; written while no other such insert is in flight (group commit). */
  private readonly unwritten: { automationId: string; run: AutomationRun }[] = [];
  private writing = false;

  constructor(
    private readonly automations: AutomationRepository,
    private readonly runs: AutomationRunRepository,
    private readonly steps: AutomationSteps,
    private readonly scheduler: JobScheduler,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly ids: Ids,
    /** Where a background write that failed is reported. */
    private readonly log: Pick<WorkLogger, 'error'> | null = null,
  ) {}

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
    // A run started by a bus event is stored first: its event id is what makes a redelivery start
    // nothing. Any other run is written once, when it ends or pauses (a mid-call lookup is on a
    // live call's path, where every write is felt).
    const stored = request.eventId !== undefined;
    if (stored && !(await this.runs.insert(automation.id, next, request.eventId))) return null;
    const running = this.drive(automation, version, next, stored, request.storeAfterAnswer === true);
    // A caller may stop waiting (a sync reply that timed out); `settled()` still covers the run.
    if (request.storeAfterAnswer) this.track(running.then(() => undefined, () => undefined));
    return running;
  }

  /**
   * Stores the run as RUNNING, so that it can be looked up at once, and executes it in the
   * background (async webhook triggers, CONTRACT §10.14).
   */
  async launch(automation: Automation, version: PinnedVersion, request: RunRequest): Promise<{ readonly run: AutomationRun; readonly finished: Promise<AutomationRun> }> {
    const next = this.newRun(version, request);
    await this.runs.insert(automation.id, next);
    const finished = this.drive(automation, version, next, true, false);
    this.track(finished.then(() => undefined, () => undefined));
    return { run: next, finished };
  }

  /** Waits for the background work: launched runs and the writes of runs answered before they were stored. */
  async settled(): Promise<void> {
    while (this.background.size > 0) await Promise.allSettled([...this.background]);
  }

  private track(work: Promise<void>): void {
    const tracked = work.finally(() => this.background.delete(tracked));
    this.background.add(tracked);
  }

  private newRun(version: PinnedVersion, request: RunRequest): AutomationRun {
    return startRun({
      id: request.runId ?? this.ids.token('run_', 22), version, trigger: request.trigger, isTest: request.isTest,
      retryOfRunId: request.retryOfRunId ?? null, input: request.input, now: this.clock.now(), attempt: request.attempt,
    }).next;
  }

  /**
   * Resumes a paused run once it is due. The PAUSED → RUNNING write succeeds for one caller only,
   * so several workers handed the same run resume it once. Null when there was nothing to resume.
   */
  async resume(automationId: string, runId: string, options: { readonly early?: boolean } = {}): Promise<AutomationRun | null> {
    const automation = await this.automations.findById(automationId);
    const run = automation ? await this.runs.find(automationId, runId) : null;
    if (automation === null || run === null || run.status !== 'PAUSED') return null;
    const version = await this.version(run.versionId);
    if (version === null) return null;
    // Early (sandbox S11): the run is treated as due now.
    const resumed = resumeRun(options.early ? { ...run, resumeAt: null } : run, version, this.clock.now());
    if (!resumed.ok) return null;
    if (!(await this.runs.saveIfStatus(automationId, resumed.value.next, 'PAUSED'))) return null;
    if (options.early) await this.scheduler.cancel([resumeJobKey(runId)]);
    return this.drive(automation, version, resumed.value.next, true);
  }

  private async drive(automation: Automation, version: PinnedVersion, start: AutomationRun, stored: boolean, storeAfterAnswer = false): Promise<AutomationRun> {
    let run = start;
    for (;;) {
      if (timeLimitExceeded(run, this.clock.now())) {
        const stopped = failOnTimeLimit(run, version, this.clock.now());
        if (stopped.ok) run = stopped.value.next;
        break;
      }
      const step = nextStep(version.definition, run);
      if (step === null) break;
      const started = startStep(run, version);
      if (!started.ok) break;
      run = started.value.next;
      const context = expressionContext(run);
      let result = executePureStep(step, context);
      if (result === null) {
        const config = resolveStepConfig(step, context);
        result = config.ok ? await this.steps.perform(step, config.value, { userId: automation.userId, isTest: run.isTest, runId: run.id }) : wiringFailure(config.error);
      }
      const applied = applyStepResult(run, version, result, this.clock.now());
      if (!applied.ok) throw new Error(`Run ${run.id} refused its step result: ${applied.error}`);
      run = applied.value.next;
      if (run.status === 'PAUSED') break;
    }
    if (run.status === 'PAUSED' && run.resumeAt) {
      const paused = run;
      await this.uow.transaction(async () => {
        await this.persist(automation.id, paused, stored);
        await this.scheduler.schedule({
          kind: AUTOMATION_RESUME_JOB, key: resumeJobKey(paused.id), payload: { automation_id: automation.id, run_id: paused.id }, runAt: paused.resumeAt as Date,
        });
      });
    } else if (storeAfterAnswer && !stored) {
      this.unwritten.push({ automationId: automation.id, run });
      if (!this.writing) this.track(this.writeAnswered());
    } else {
      await this.persist(automation.id, run, stored);
    }
    return run;
  }

  /**
   * Under load many answered runs pile up while one insert is in flight; they go in the next
   * statement together, so the database sees one write per batch rather than one per request.
   */
  private async writeAnswered(): Promise<void> {
    this.writing = true;
    try {
      while (this.unwritten.length > 0) {
        const batch = this.unwritten.splice(0, RUN_WRITE_BATCH);
        await this.runs.insertMany(batch).catch((e: unknown) => this.log?.error({ err: e, runIds: batch.map((b) => b.run.id) }, 'storing answered automation runs failed'));
      }
    } finally {
      this.writing = false;
    }
  }

  private async persist(automationId: string, run: AutomationRun, stored: boolean): Promise<void> {
    if (stored) await this.runs.save(automationId, run);
    else await this.runs.insert(automationId, run);
  }
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
