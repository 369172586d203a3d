import { err, ok, Result } from '../common/result';
import { AttemptError, judgeAttempt, MAX_DELIVERY_ATTEMPTS } from '../webhooks/delivery';
import { classifyFailure } from './classification';
import type { ExpressionContext } from './expressions';
import type { JsonValue } from './json';
import { BACKGROUND_LIMIT_MS, IN_REQUEST_LIMIT_MS } from './limits';
import { AutomationDefinition, AutomationStep, triggerStepName } from './step-kinds';
import type { StepAttemptOutcome, StepClassification, StepFailureReason, StepResult } from './step-outcome';

/**
 * A run of one automation version:
 *   RUNNING → SUCCEEDED | FAILED | PAUSED(resumeAt) → RUNNING.
 * Steps go PENDING → RUNNING → SUCCEEDED | FAILED | PAUSED, or PENDING → SKIPPED. The run keeps the
 * id of the version it started on; every transition is handed that version and refuses another.
 */
export const RUN_STATUSES = ['RUNNING', 'SUCCEEDED', 'FAILED', 'PAUSED'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
export const STEP_STATUSES = ['PENDING', 'RUNNING', 'SUCCEEDED', 'FAILED', 'PAUSED', 'SKIPPED'] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];
export const RUN_TRIGGERS = ['test', 'webhook', 'assistant_event', 'tool', 'retry'] as const;
export type RunTrigger = (typeof RUN_TRIGGERS)[number];

/** Tests and retries execute synchronously inside the request that started them (see limits.ts). */
export const executionLimitMs = (trigger: RunTrigger): number =>
  trigger === 'test' || trigger === 'retry' ? IN_REQUEST_LIMIT_MS : BACKGROUND_LIMIT_MS;

export interface StepFailure {
  readonly reason: StepFailureReason;
  /** What the error text needs: the missing path, the chat-app error, the HTTP status, the limit in seconds… */
  readonly detail: string | null;
}

/** One HTTP attempt of a step, as the run detail shows it. */
export interface StepAttempt {
  readonly at: string;
  readonly status_code: number | null;
  readonly error: AttemptError | null;
}

export interface RunStepState {
  readonly name: string;
  readonly status: StepStatus;
  readonly classification: StepClassification;
  readonly failure: StepFailure | null;
  /** Absent until the step produced one (a failed lookup still has `{found:false}`). */
  readonly output?: JsonValue;
  /** HTTP steps of unattended runs: every attempt so far, oldest first. */
  readonly attempts?: readonly StepAttempt[];
}

export interface AutomationRun {
  readonly id: string;
  readonly versionId: string;
  readonly trigger: RunTrigger;
  readonly isTest: boolean;
  readonly retryOfRunId: string | null;
  readonly input: JsonValue;
  /** Position in a chain of the automation's own calls (`chainAttempt`); 1 for any other start. */
  readonly attempt: number;
  readonly status: RunStatus;
  /** Every step of the pinned version in order, the trigger first. */
  readonly steps: readonly RunStepState[];
  readonly startedAt: Date;
  /** Start of the current stretch of execution; null while paused or finished. */
  readonly runningSince: Date | null;
  /** Execution time of the stretches already over (paused time is not execution). */
  readonly executedMs: number;
  readonly resumeAt: Date | null;
  /** The running HTTP step's next attempt, while the run waits for it (not execution time). */
  readonly retryAt: Date | null;
  /** The first step that failed. */
  readonly failedStep: string | null;
  readonly finishedAt: Date | null;
}

/** A version as a run sees it: its id and its parsed definition. */
export interface PinnedVersion {
  readonly id: string;
  readonly definition: AutomationDefinition;
}

export type { StepAttemptOutcome, StepResult } from './step-outcome';

export type RunEvent =
  | { readonly type: 'run_started'; readonly runId: string }
  | { readonly type: 'run_paused'; readonly runId: string; readonly resumeAt: Date }
  | { readonly type: 'run_resumed'; readonly runId: string }
  | { readonly type: 'run_succeeded'; readonly runId: string }
  | { readonly type: 'run_failed'; readonly runId: string; readonly failedStep: string };

export type RunRefusal =
  /** The version handed in is not the one the run is pinned to. */
  | 'version_mismatch'
  | 'run_not_running'
  | 'run_not_paused'
  /** A paused run resumes only once `resumeAt` has come. */
  | 'not_due'
  /** A step is already running: its result comes first. */
  | 'step_in_progress'
  | 'no_step_to_start'
  | 'no_step_running'
  /** `paused_at_delay` comes only from a `delay` step, and a `delay` step only pauses. */
  | 'result_does_not_fit_step'
  | 'within_time_limit';

export interface RunTransition {
  readonly next: AutomationRun;
  readonly events: readonly RunEvent[];
}

export interface RunStart {
  readonly id: string;
  readonly version: PinnedVersion;
  readonly trigger: RunTrigger;
  readonly isTest: boolean;
  readonly retryOfRunId: string | null;
  readonly input: JsonValue;
  readonly now: Date;
  readonly attempt?: number;
}

const pending = (name: string): RunStepState => ({ name, status: 'PENDING', classification: 'ok', failure: null });

/** A new run: the trigger step has received the input, every other step waits. */
export function startRun(start: RunStart): RunTransition {
  const { definition } = start.version;
  const triggerStep: RunStepState = {
    name: triggerStepName(definition.trigger),
    status: 'SUCCEEDED',
    classification: 'ok',
    failure: null,
    output: start.input,
  };
  const next: AutomationRun = {
    id: start.id,
    versionId: start.version.id,
    trigger: start.trigger,
    isTest: start.isTest,
    retryOfRunId: start.retryOfRunId,
    input: start.input,
    attempt: start.attempt ?? 1,
    status: 'RUNNING',
    steps: [triggerStep, ...definition.steps.map((s) => pending(s.name))],
    startedAt: start.now,
    runningSince: start.now,
    executedMs: 0,
    resumeAt: null,
    retryAt: null,
    failedStep: null,
    finishedAt: null,
  };
  return { next, events: [{ type: 'run_started', runId: start.id }] };
}

/** The step to execute now; null when the run is not running, a step is in flight, or none is left. */
export function nextStep(definition: AutomationDefinition, run: AutomationRun): AutomationStep | null {
  if (run.status !== 'RUNNING' || run.steps.some((s) => s.status === 'RUNNING')) return null;
  const waiting = run.steps.find((s) => s.status === 'PENDING');
  return waiting ? (definition.steps.find((s) => s.name === waiting.name) ?? null) : null;
}

/** The step that was running when the run was last stored: executed again when the run is taken over. */
export function stepInFlight(definition: AutomationDefinition, run: AutomationRun): AutomationStep | null {
  if (run.status !== 'RUNNING') return null;
  const running = run.steps.find((s) => s.status === 'RUNNING');
  return running ? (definition.steps.find((s) => s.name === running.name) ?? null) : null;
}

/** Marks the next step RUNNING (what a run detail shows while it executes). */
export function startStep(run: AutomationRun, version: PinnedVersion): Result<RunTransition, RunRefusal> {
  const refused = guard(run, version, 'RUNNING');
  if (refused) return err(refused);
  if (run.steps.some((s) => s.status === 'RUNNING')) return err('step_in_progress');
  const step = nextStep(version.definition, run);
  if (!step) return err('no_step_to_start');
  return ok({ next: withStep(run, step.name, (s) => ({ ...s, status: 'RUNNING' })), events: [] });
}

/**
 * Records the running step's result and moves the run:
 *  - `ok`: the step SUCCEEDED; a condition whose result is false skips every later step but `respond`;
 *  - `paused_at_delay`: the step and the run are PAUSED until now + the delay;
 *  - `failed`: the step FAILED with its classification; later steps are skipped except `respond`,
 *    which always runs (a sync webhook's caller still gets its reply); the run ends FAILED.
 * The run ends (SUCCEEDED or FAILED) when no step is left to run.
 */
export function applyStepResult(
  run: AutomationRun,
  version: PinnedVersion,
  result: StepResult,
  now: Date,
): Result<RunTransition, RunRefusal> {
  const refused = guard(run, version, 'RUNNING');
  if (refused) return err(refused);
  const state = run.steps.find((s) => s.status === 'RUNNING');
  if (!state) return err('no_step_running');
  const step = version.definition.steps.find((s) => s.name === state.name) as AutomationStep;
  if ((result.kind === 'paused_at_delay') !== (step.kind === 'delay')) return err('result_does_not_fit_step');

  if (result.kind === 'paused_at_delay') {
    const minutes = (step as Extract<AutomationStep, { kind: 'delay' }>).config.minutes;
    const resumeAt = new Date(now.getTime() + minutes * 60_000);
    const paused = withStep(run, step.name, (s) => ({
      ...s,
      status: 'PAUSED',
      classification: 'paused_at_delay',
      output: { resume_at: resumeAt.toISOString() },
    }));
    const next: AutomationRun = {
      ...paused,
      status: 'PAUSED',
      resumeAt,
      runningSince: null,
      executedMs: executedUntil(run, now),
    };
    return ok({ next, events: [{ type: 'run_paused', runId: run.id, resumeAt }] });
  }

  const attempts = (s: RunStepState) =>
    result.attempt ? { attempts: [...(s.attempts ?? []), attemptAt(result.attempt, now)] } : {};
  if (result.kind === 'ok') {
    const succeeded = withStep(run, step.name, (s) => ({
      ...s,
      status: 'SUCCEEDED',
      classification: 'ok',
      output: result.output,
      ...attempts(s),
    }));
    const conditionFalse = step.kind === 'condition' && isFalseResult(result.output);
    return ok(settle(conditionFalse ? skipAfter(succeeded, version.definition, step.name, true) : succeeded, now));
  }

  const failure: StepFailure = { reason: result.reason, detail: result.detail };
  const failed = withStep(run, step.name, (s) => ({
    ...s,
    status: 'FAILED',
    classification: classifyFailure(step.kind, result.reason),
    failure,
    ...(result.output === undefined ? {} : { output: result.output }),
    ...attempts(s),
  }));
  const recorded: AutomationRun = { ...failed, failedStep: run.failedStep ?? step.name };
  return ok(settle(skipAfter(recorded, version.definition, step.name, true), now));
}

/** HTTP steps whose failed attempts are tried again on the webhook delivery schedule. */
const RETRIED_KINDS: ReadonlySet<AutomationStep['kind']> = new Set(['http.request', 'crm.push_note']);

/**
 * When the running step's failed attempt is tried again (the outgoing webhook schedule, jitter and
 * `Retry-After`, at most 8 attempts): the delay in ms, or null when the result stands. A refused
 * target, a 410 and a CRM's 401/403 stand at once.
 */
export function stepRetryDelayMs(
  run: AutomationRun,
  version: PinnedVersion,
  result: StepResult,
  jitter: number,
): number | null {
  if (result.kind !== 'failed' || !result.attempt || result.reason === 'http_unauthorized') return null;
  const state = run.steps.find((s) => s.status === 'RUNNING');
  const step = state ? version.definition.steps.find((s) => s.name === state.name) : undefined;
  if (!state || !step || !RETRIED_KINDS.has(step.kind)) return null;
  const verdict = judgeAttempt(result.attempt, (state.attempts?.length ?? 0) + 1, MAX_DELIVERY_ATTEMPTS, jitter);
  return verdict.kind === 'retry' ? verdict.delayMs : null;
}

/**
 * The running step's attempt failed and is tried again at `retryAt`: the attempt is recorded, the
 * step stays RUNNING, and the run waits (the wait is not execution time, like a pause).
 */
export function waitForStepRetry(
  run: AutomationRun,
  version: PinnedVersion,
  attempt: StepAttemptOutcome,
  retryAt: Date,
  now: Date,
): Result<RunTransition, RunRefusal> {
  const refused = guard(run, version, 'RUNNING');
  if (refused) return err(refused);
  const state = run.steps.find((s) => s.status === 'RUNNING');
  if (!state) return err('no_step_running');
  const recorded = withStep(run, state.name, (s) => ({
    ...s,
    attempts: [...(s.attempts ?? []), attemptAt(attempt, now)],
  }));
  return ok({ next: { ...recorded, retryAt, runningSince: null, executedMs: executedUntil(run, now) }, events: [] });
}

/**
 * A run taken over by another worker: one waiting for a step's retry goes on once it is due; one
 * whose worker was lost goes on from the step in flight (steps are idempotent by run and step)
 * while it is within its execution limit, else that step fails as `worker_lost` (`wiring_error`)
 * and the run ends FAILED.
 */
export function continueRun(run: AutomationRun, version: PinnedVersion, now: Date): Result<RunTransition, RunRefusal> {
  const refused = guard(run, version, 'RUNNING');
  if (refused) return err(refused);
  if (run.retryAt !== null) {
    if (now.getTime() < run.retryAt.getTime()) return err('not_due');
    return ok({ next: { ...run, retryAt: null, runningSince: now }, events: [] });
  }
  if (!timeLimitExceeded(run, now)) return ok({ next: run, events: [] });
  const current = run.steps.find((s) => s.status === 'RUNNING') ?? run.steps.find((s) => s.status === 'PENDING');
  if (!current) return ok(settle(run, now));
  const failure: StepFailure = { reason: 'worker_lost', detail: null };
  const failed = withStep(run, current.name, (s) => ({
    ...s,
    status: 'FAILED',
    classification: 'wiring_error',
    failure,
  }));
  return ok(
    settle(
      skipAfter({ ...failed, failedStep: run.failedStep ?? current.name }, version.definition, current.name, false),
      now,
    ),
  );
}

/** PAUSED → RUNNING once `resumeAt` has come; the delay step is done and counts as succeeded. */
export function resumeRun(run: AutomationRun, version: PinnedVersion, now: Date): Result<RunTransition, RunRefusal> {
  const refused = guard(run, version, 'PAUSED');
  if (refused) return err(refused);
  if (run.resumeAt && now.getTime() < run.resumeAt.getTime()) return err('not_due');
  const resumed = run.steps.map(
    (s): RunStepState => (s.status === 'PAUSED' ? { ...s, status: 'SUCCEEDED', classification: 'ok' } : s),
  );
  const next: AutomationRun = { ...run, steps: resumed, status: 'RUNNING', resumeAt: null, runningSince: now };
  return ok(settle(next, now, [{ type: 'run_resumed', runId: run.id }]));
}

/** True once a running run has executed for its whole limit ("at most N s": at N s it stops). */
export function timeLimitExceeded(run: AutomationRun, now: Date): boolean {
  return run.status === 'RUNNING' && runDurationMs(run, now) >= executionLimitMs(run.trigger);
}

/**
 * The run has used up its execution time: the running step (or the one about to run) fails with
 * `step_error` (`Run exceeded 60 seconds.`), nothing else runs, not even `respond`.
 */
export function failOnTimeLimit(
  run: AutomationRun,
  version: PinnedVersion,
  now: Date,
): Result<RunTransition, RunRefusal> {
  const refused = guard(run, version, 'RUNNING');
  if (refused) return err(refused);
  const limitMs = executionLimitMs(run.trigger);
  if (runDurationMs(run, now) < limitMs) return err('within_time_limit');
  const current = run.steps.find((s) => s.status === 'RUNNING') ?? run.steps.find((s) => s.status === 'PENDING');
  if (!current) return ok(settle(run, now));
  const failure: StepFailure = { reason: 'time_limit_exceeded', detail: String(Math.floor(limitMs / 1_000)) };
  const failed = withStep(run, current.name, (s) => ({
    ...s,
    status: 'FAILED',
    classification: 'step_error',
    failure,
  }));
  const recorded: AutomationRun = { ...failed, failedStep: run.failedStep ?? current.name };
  return ok(settle(skipAfter(recorded, version.definition, current.name, false), now));
}

/** Execution time so far, paused time excluded (`duration_ms`). */
export function runDurationMs(run: AutomationRun, now: Date): number {
  return executedUntil(run, now);
}

/** What the expressions of the next step can read: the input and the outputs produced so far. */
export function expressionContext(run: AutomationRun): ExpressionContext {
  const steps: Record<string, { output: JsonValue }> = {};
  for (const s of run.steps.slice(1)) {
    if (s.output !== undefined) Object.defineProperty(steps, s.name, { value: { output: s.output }, enumerable: true });
  }
  return { trigger: run.input, steps };
}

/** Only a FAILED run can be retried; the retry is a new run with the same input. */
export function checkRetry(
  run: AutomationRun,
): Result<Pick<RunStart, 'trigger' | 'isTest' | 'retryOfRunId' | 'input'>, 'run_not_retryable'> {
  if (run.status !== 'FAILED') return err('run_not_retryable');
  return ok({ trigger: 'retry', isTest: run.isTest, retryOfRunId: run.id, input: run.input });
}

function guard(run: AutomationRun, version: PinnedVersion, status: 'RUNNING' | 'PAUSED'): RunRefusal | null {
  if (version.id !== run.versionId) return 'version_mismatch';
  if (run.status !== status) return status === 'RUNNING' ? 'run_not_running' : 'run_not_paused';
  return null;
}

function withStep(run: AutomationRun, name: string, change: (s: RunStepState) => RunStepState): AutomationRun {
  return { ...run, steps: run.steps.map((s) => (s.name === name ? change(s) : s)) };
}

/** Every pending step after `name` is SKIPPED, `respond` excepted when `keepRespond`. */
function skipAfter(
  run: AutomationRun,
  definition: AutomationDefinition,
  name: string,
  keepRespond: boolean,
): AutomationRun {
  const index = run.steps.findIndex((s) => s.name === name);
  const isRespond = (stepName: string) => definition.steps.some((d) => d.name === stepName && d.kind === 'respond');
  const steps = run.steps.map(
    (s, i): RunStepState =>
      i > index && s.status === 'PENDING' && !(keepRespond && isRespond(s.name)) ? { ...s, status: 'SKIPPED' } : s,
  );
  return { ...run, steps };
}

/** Ends a running run that has no step left: FAILED when a step failed, else SUCCEEDED. */
function settle(run: AutomationRun, now: Date, events: readonly RunEvent[] = []): RunTransition {
  const open = run.steps.some((s) => s.status === 'PENDING' || s.status === 'RUNNING');
  if (run.status !== 'RUNNING' || open) return { next: run, events };
  const ended = { ...run, runningSince: null, executedMs: executedUntil(run, now), finishedAt: now };
  if (run.failedStep !== null) {
    return {
      next: { ...ended, status: 'FAILED' },
      events: [...events, { type: 'run_failed', runId: run.id, failedStep: run.failedStep }],
    };
  }
  return { next: { ...ended, status: 'SUCCEEDED' }, events: [...events, { type: 'run_succeeded', runId: run.id }] };
}

function attemptAt(outcome: StepAttemptOutcome, now: Date): StepAttempt {
  return { at: now.toISOString(), status_code: outcome.statusCode, error: outcome.error };
}

function executedUntil(run: AutomationRun, now: Date): number {
  return run.executedMs + (run.runningSince ? Math.max(0, now.getTime() - run.runningSince.getTime()) : 0);
}

function isFalseResult(output: JsonValue): boolean {
  return (
    typeof output === 'object' &&
    output !== null &&
    !Array.isArray(output) &&
    (output as { result?: JsonValue }).result === false
  );
}
