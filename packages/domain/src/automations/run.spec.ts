import { err, ok } from '../common/result';
import {
  applyStepResult,
  AutomationRun,
  checkRetry,
  expressionContext,
  failOnTimeLimit,
  nextStep,
  PinnedVersion,
  resumeRun,
  RunTransition,
  runDurationMs,
  startRun,
  startStep,
  StepResult,
  timeLimitExceeded,
} from './run';
import { parseDefinition } from './definition';
import { AutomationDefinition } from './step-kinds';
import type { RunTrigger } from './run';

const T0 = new Date('2026-03-01T10:20:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);

/** The `delayed_followup_call` template. */
const followup: PinnedVersion = {
  id: 'ver_followup',
  definition: {
    trigger: { kind: 'trigger.assistant_event', event: 'call.ended' },
    steps: [
      {
        name: 'check_unanswered',
        kind: 'condition',
        config: { field: '{{call.status}}', op: 'in', value: ['no-answer', 'busy', 'failed'] },
      },
      { name: 'wait', kind: 'delay', config: { minutes: 60 } },
      {
        name: 'place_call',
        kind: 'voice.make_call',
        config: { assistant_id: 101, to: '{{call.customer_phone}}', variables: '{{call.input_variables}}' },
      },
    ],
  },
};

/** The `midcall_lookup_table` template. */
const lookup: PinnedVersion = {
  id: 'ver_lookup',
  definition: {
    trigger: { kind: 'trigger.webhook', mode: 'sync' },
    steps: [
      {
        name: 'lookup_row',
        kind: 'table.lookup',
        config: { table_id: 7, key_column: 'order_number', value: '{{trigger.key}}' },
      },
      { name: 'respond', kind: 'respond', config: { body: '{{steps.lookup_row.output}}' } },
    ],
  },
};

const input = {
  event: 'call.ended',
  assistant_id: 101,
  call: { status: 'no-answer', customer_phone: '+14155551234', input_variables: {} },
};

const start = (version: PinnedVersion, trigger: RunTrigger = 'test', now = T0): AutomationRun =>
  startRun({ id: 'run_1', version, trigger, isTest: trigger === 'test', retryOfRunId: null, input, now }).next;

const value = (r: ReturnType<typeof applyStepResult>): RunTransition => {
  if (!r.ok) throw new Error(`refused: ${r.error}`);
  return r.value;
};

/** Starts the next step and records its result. */
function step(run: AutomationRun, version: PinnedVersion, result: StepResult, now: Date): RunTransition {
  return value(applyStepResult(value(startStep(run, version)).next, version, result, now));
}

const statuses = (run: AutomationRun) => run.steps.map((s) => [s.name, s.status, s.classification]);

describe('starting a run', () => {
  it('is RUNNING, pinned to its version, with the trigger step done and every other step pending', () => {
    const t = startRun({
      id: 'run_1',
      version: followup,
      trigger: 'assistant_event',
      isTest: false,
      retryOfRunId: null,
      input,
      now: T0,
    });
    expect(t.events).toEqual([{ type: 'run_started', runId: 'run_1' }]);
    expect(t.next).toMatchObject({
      id: 'run_1',
      versionId: 'ver_followup',
      status: 'RUNNING',
      startedAt: T0,
      runningSince: T0,
      executedMs: 0,
      resumeAt: null,
      failedStep: null,
    });
    expect(statuses(t.next)).toEqual([
      ['call_ended_trigger', 'SUCCEEDED', 'ok'],
      ['check_unanswered', 'PENDING', 'ok'],
      ['wait', 'PENDING', 'ok'],
      ['place_call', 'PENDING', 'ok'],
    ]);
    expect(t.next.steps[0].output).toEqual(input);
  });

  it('names a webhook trigger step webhook_trigger', () => {
    expect(start(lookup).steps[0].name).toBe('webhook_trigger');
  });
});

describe('next step', () => {
  it('is the first pending step, and none while one is running', () => {
    const run = start(followup);
    expect(nextStep(followup.definition, run)?.name).toBe('check_unanswered');
    expect(nextStep(followup.definition, value(startStep(run, followup)).next)).toBeNull();
  });

  it('is none for a paused or finished run', () => {
    let run = step(start(followup), followup, { kind: 'ok', output: { result: true } }, at(10)).next;
    run = step(run, followup, { kind: 'paused_at_delay' }, at(20)).next;
    expect(run.status).toBe('PAUSED');
    expect(nextStep(followup.definition, run)).toBeNull();
    const done = step(
      step(start(lookup), lookup, { kind: 'ok', output: { found: true } }, at(5)).next,
      lookup,
      { kind: 'ok', output: { found: true } },
      at(6),
    ).next;
    expect(done.status).toBe('SUCCEEDED');
    expect(nextStep(lookup.definition, done)).toBeNull();
  });
});

describe('starting a step', () => {
  it('marks it RUNNING', () => {
    const run = value(startStep(start(followup), followup)).next;
    expect(run.steps[1].status).toBe('RUNNING');
  });

  it.each([
    ['version_mismatch', (r: AutomationRun) => startStep(r, { ...followup, id: 'ver_other' })],
    ['step_in_progress', (r: AutomationRun) => startStep(value(startStep(r, followup)).next, followup)],
    ['run_not_running', (r: AutomationRun) => startStep({ ...r, status: 'SUCCEEDED' }, followup)],
    [
      'no_step_to_start',
      (r: AutomationRun) =>
        startStep({ ...r, steps: r.steps.map((s) => ({ ...s, status: 'SKIPPED' as const })) }, followup),
    ],
  ])('refuses: %s', (code, act) => {
    expect(act(start(followup))).toEqual(err(code));
  });
});

describe('step results', () => {
  it('ok: the step succeeds with its output; after the last step the run SUCCEEDED', () => {
    const first = step(
      start(lookup, 'webhook'),
      lookup,
      { kind: 'ok', output: { found: true, row: { order_number: 'A-1001' } } },
      at(100),
    );
    expect(first.events).toEqual([]);
    expect(first.next.steps[1]).toEqual({
      name: 'lookup_row',
      status: 'SUCCEEDED',
      classification: 'ok',
      failure: null,
      output: { found: true, row: { order_number: 'A-1001' } },
    });
    const last = step(first.next, lookup, { kind: 'ok', output: { found: true } }, at(250));
    expect(last.events).toEqual([{ type: 'run_succeeded', runId: 'run_1' }]);
    expect(last.next).toMatchObject({ status: 'SUCCEEDED', finishedAt: at(250), executedMs: 250, runningSince: null });
  });

  it('a false condition skips every later step and the run still SUCCEEDED', () => {
    const t = step(start(followup), followup, { kind: 'ok', output: { result: false } }, at(30));
    expect(statuses(t.next)).toEqual([
      ['call_ended_trigger', 'SUCCEEDED', 'ok'],
      ['check_unanswered', 'SUCCEEDED', 'ok'],
      ['wait', 'SKIPPED', 'ok'],
      ['place_call', 'SKIPPED', 'ok'],
    ]);
    expect(t.next.status).toBe('SUCCEEDED');
    expect(t.events).toEqual([{ type: 'run_succeeded', runId: 'run_1' }]);
  });

  it('a false condition does not skip respond, which always runs', () => {
    const gated: PinnedVersion = {
      id: 'ver_gated',
      definition: {
        trigger: { kind: 'trigger.webhook', mode: 'sync' },
        steps: [
          { name: 'gate', kind: 'condition', config: { field: '{{trigger.ok}}', op: 'eq', value: true } },
          ...lookup.definition.steps,
        ],
      },
    };
    const t = step(start(gated), gated, { kind: 'ok', output: { result: false } }, at(1));
    expect(statuses(t.next).slice(2)).toEqual([
      ['lookup_row', 'SKIPPED', 'ok'],
      ['respond', 'PENDING', 'ok'],
    ]);
    expect(nextStep(gated.definition, t.next)?.name).toBe('respond');
  });

  it('a true condition lets the next step run', () => {
    const t = step(start(followup), followup, { kind: 'ok', output: { result: true } }, at(30));
    expect(t.next.status).toBe('RUNNING');
    expect(nextStep(followup.definition, t.next)?.name).toBe('wait');
  });

  it('paused_at_delay parks the run until now + the delay, later steps stay PENDING', () => {
    const checked = step(start(followup), followup, { kind: 'ok', output: { result: true } }, at(500));
    const t = step(checked.next, followup, { kind: 'paused_at_delay' }, at(840));
    const resumeAt = new Date('2026-03-01T11:20:00.840Z');
    expect(t.events).toEqual([{ type: 'run_paused', runId: 'run_1', resumeAt }]);
    expect(t.next).toMatchObject({ status: 'PAUSED', resumeAt, runningSince: null, executedMs: 840, finishedAt: null });
    expect(statuses(t.next)).toEqual([
      ['call_ended_trigger', 'SUCCEEDED', 'ok'],
      ['check_unanswered', 'SUCCEEDED', 'ok'],
      ['wait', 'PAUSED', 'paused_at_delay'],
      ['place_call', 'PENDING', 'ok'],
    ]);
    expect(t.next.steps[2].output).toEqual({ resume_at: '2026-03-01T11:20:00.840Z' });
  });

  it('a failure fails the step with its classification, skips the rest and fails the run', () => {
    const checked = step(start(followup), followup, { kind: 'ok', output: { result: true } }, at(1));
    const resumed = value(
      resumeRun(step(checked.next, followup, { kind: 'paused_at_delay' }, at(2)).next, followup, at(3_600_002)),
    );
    const t = step(resumed.next, followup, { kind: 'failed', reason: 'record_gone', detail: '101' }, at(3_600_010));
    expect(t.next.steps[3]).toEqual({
      name: 'place_call',
      status: 'FAILED',
      classification: 'missing_record',
      failure: { reason: 'record_gone', detail: '101' },
    });
    expect(t.next).toMatchObject({
      status: 'FAILED',
      failedStep: 'place_call',
      finishedAt: at(3_600_010),
      executedMs: 10,
    });
    expect(t.events).toEqual([{ type: 'run_failed', runId: 'run_1', failedStep: 'place_call' }]);
  });

  it('a failure skips the later steps', () => {
    const t = step(start(followup), followup, { kind: 'failed', reason: 'missing_path', detail: 'call.status' }, at(5));
    expect(statuses(t.next)).toEqual([
      ['call_ended_trigger', 'SUCCEEDED', 'ok'],
      ['check_unanswered', 'FAILED', 'wiring_error'],
      ['wait', 'SKIPPED', 'ok'],
      ['place_call', 'SKIPPED', 'ok'],
    ]);
    expect(t.next.status).toBe('FAILED');
  });

  it('after a failure respond still runs, keeps the failed output readable, and the run ends FAILED', () => {
    const failed = step(
      start(lookup, 'webhook'),
      lookup,
      { kind: 'failed', reason: 'no_row', detail: null, output: { found: false } },
      at(40),
    );
    expect(failed.next).toMatchObject({ status: 'RUNNING', failedStep: 'lookup_row' });
    expect(failed.events).toEqual([]);
    expect(failed.next.steps[1]).toMatchObject({
      status: 'FAILED',
      classification: 'missing_record',
      output: { found: false },
    });
    expect(nextStep(lookup.definition, failed.next)?.name).toBe('respond');
    expect(expressionContext(failed.next).steps.lookup_row).toEqual({ output: { found: false } });
    const replied = step(failed.next, lookup, { kind: 'ok', output: { found: false } }, at(45));
    expect(replied.next).toMatchObject({ status: 'FAILED', failedStep: 'lookup_row' });
    expect(replied.next.steps[2]).toMatchObject({ status: 'SUCCEEDED', classification: 'ok' });
    expect(replied.events).toEqual([{ type: 'run_failed', runId: 'run_1', failedStep: 'lookup_row' }]);
  });

  it('keeps the first failing step when respond fails too', () => {
    const failed = step(start(lookup), lookup, { kind: 'failed', reason: 'no_row', detail: null }, at(1));
    const t = step(
      failed.next,
      lookup,
      { kind: 'failed', reason: 'missing_path', detail: 'steps.lookup_row.output' },
      at(2),
    );
    expect(t.next).toMatchObject({ status: 'FAILED', failedStep: 'lookup_row' });
    expect(t.next.steps[2].classification).toBe('wiring_error');
  });

  it.each([
    ['paused_at_delay from a step that is not a delay', start(followup), { kind: 'paused_at_delay' } as StepResult],
    [
      'ok from a delay step',
      step(start(followup), followup, { kind: 'ok', output: { result: true } }, at(1)).next,
      { kind: 'ok', output: null } as StepResult,
    ],
  ])('refuses %s', (_label, run, result) => {
    const running = value(startStep(run, followup)).next;
    expect(applyStepResult(running, followup, result, at(2))).toEqual(err('result_does_not_fit_step'));
  });

  it('refuses a result when no step is running, for another version, or when the run is not running', () => {
    const run = start(followup);
    const running = value(startStep(run, followup)).next;
    const result: StepResult = { kind: 'ok', output: { result: true } };
    expect(applyStepResult(run, followup, result, at(1))).toEqual(err('no_step_running'));
    expect(applyStepResult(running, { ...followup, id: 'ver_2' }, result, at(1))).toEqual(err('version_mismatch'));
    for (const status of ['PAUSED', 'SUCCEEDED', 'FAILED'] as const) {
      expect(applyStepResult({ ...running, status }, followup, result, at(1))).toEqual(err('run_not_running'));
    }
  });
});

describe('resuming a paused run', () => {
  const paused = () =>
    step(
      step(start(followup), followup, { kind: 'ok', output: { result: true } }, at(100)).next,
      followup,
      { kind: 'paused_at_delay' },
      at(200),
    ).next;

  it('is refused before resume_at', () => {
    expect(resumeRun(paused(), followup, at(200 + 3_600_000 - 1))).toEqual(err('not_due'));
  });

  it('at or after resume_at the run is RUNNING again and continues after the delay', () => {
    const t = value(resumeRun(paused(), followup, at(200 + 3_600_000)));
    expect(t.events).toEqual([{ type: 'run_resumed', runId: 'run_1' }]);
    expect(t.next).toMatchObject({
      status: 'RUNNING',
      resumeAt: null,
      runningSince: at(3_600_200),
      versionId: 'ver_followup',
    });
    expect(t.next.steps[2]).toMatchObject({ name: 'wait', status: 'SUCCEEDED', classification: 'ok' });
    expect(nextStep(followup.definition, t.next)?.name).toBe('place_call');
  });

  it('stays pinned: another version (a later publish or restore) is refused', () => {
    expect(resumeRun(paused(), { ...followup, id: 'ver_newer' }, at(9_999_999))).toEqual(err('version_mismatch'));
  });

  it.each(['RUNNING', 'SUCCEEDED', 'FAILED'] as const)('a %s run cannot be resumed', (status) => {
    expect(resumeRun({ ...paused(), status }, followup, at(9_999_999))).toEqual(err('run_not_paused'));
  });

  it('a delay as the last step ends the run when it resumes', () => {
    const tail: PinnedVersion = {
      id: 'ver_tail',
      definition: {
        trigger: { kind: 'trigger.webhook', mode: 'async' },
        steps: [{ name: 'wait', kind: 'delay', config: { minutes: 1 } }],
      },
    };
    const run = step(start(tail), tail, { kind: 'paused_at_delay' }, at(10)).next;
    const t = value(resumeRun(run, tail, at(60_010)));
    expect(t.next.status).toBe('SUCCEEDED');
    expect(t.events).toEqual([
      { type: 'run_resumed', runId: 'run_1' },
      { type: 'run_succeeded', runId: 'run_1' },
    ]);
  });

  it('paused time is not execution time (duration_ms)', () => {
    const t = value(resumeRun(paused(), followup, at(5_000_000)));
    expect(runDurationMs(t.next, at(5_000_300))).toBe(500);
    const done = step(t.next, followup, { kind: 'ok', output: { call_id: 1, status: 'initiated' } }, at(5_000_400));
    expect(done.next.executedMs).toBe(600);
    expect(runDurationMs(done.next, at(9_000_000))).toBe(600);
  });
});

describe('execution limits', () => {
  it.each([
    ['test', 59_999, false],
    ['test', 60_000, true],
    ['retry', 60_000, true],
    ['webhook', 60_000, false],
    ['assistant_event', 599_999, false],
    ['assistant_event', 600_000, true],
    ['tool', 600_000, true],
  ] as const)('a %s run after %d ms: exceeded %p', (trigger, ms, exceeded) => {
    expect(timeLimitExceeded(start(followup, trigger), at(ms))).toBe(exceeded);
  });

  it('paused time does not count, and a paused run has no running time to exceed', () => {
    const paused = step(
      step(start(followup), followup, { kind: 'ok', output: { result: true } }, at(30_000)).next,
      followup,
      { kind: 'paused_at_delay' },
      at(50_000),
    ).next;
    expect(timeLimitExceeded(paused, at(10_000_000))).toBe(false);
    const resumed = value(resumeRun(paused, followup, at(4_000_000))).next;
    expect(timeLimitExceeded(resumed, at(4_009_999))).toBe(false);
    expect(timeLimitExceeded(resumed, at(4_010_000))).toBe(true);
  });

  it('the running step fails with step_error, nothing else runs (respond included), the run FAILED', () => {
    const running = value(startStep(start(lookup, 'test'), lookup)).next;
    const t = value(failOnTimeLimit(running, lookup, at(60_000)));
    expect(t.next.steps[1]).toEqual({
      name: 'lookup_row',
      status: 'FAILED',
      classification: 'step_error',
      failure: { reason: 'time_limit_exceeded', detail: '60' },
    });
    expect(t.next.steps[2].status).toBe('SKIPPED');
    expect(t.next).toMatchObject({ status: 'FAILED', failedStep: 'lookup_row', executedMs: 60_000 });
    expect(t.events).toEqual([{ type: 'run_failed', runId: 'run_1', failedStep: 'lookup_row' }]);
  });

  it('between steps, the step about to run is the one that fails; a background run reports 600', () => {
    const t = value(failOnTimeLimit(start(followup, 'assistant_event'), followup, at(600_000)));
    expect(t.next.steps[1]).toMatchObject({
      name: 'check_unanswered',
      status: 'FAILED',
      failure: { reason: 'time_limit_exceeded', detail: '600' },
    });
  });

  it('is refused within the limit, for another version, or when the run is not running', () => {
    expect(failOnTimeLimit(start(followup), followup, at(59_999))).toEqual(err('within_time_limit'));
    expect(failOnTimeLimit(start(followup), { ...followup, id: 'x' }, at(60_000))).toEqual(err('version_mismatch'));
    expect(failOnTimeLimit({ ...start(followup), status: 'PAUSED' }, followup, at(60_000))).toEqual(
      err('run_not_running'),
    );
  });
});

describe('expression context of a run', () => {
  it('reads the input as trigger and the outputs of the steps that produced one', () => {
    const run = step(start(followup), followup, { kind: 'ok', output: { result: true } }, at(1)).next;
    expect(expressionContext(run)).toEqual({
      trigger: input,
      steps: { check_unanswered: { output: { result: true } } },
    });
  });
});

describe('retry', () => {
  it('a FAILED run can be retried with the same input and test flag', () => {
    const failed = step(
      start(followup),
      followup,
      { kind: 'failed', reason: 'missing_path', detail: 'call.status' },
      at(1),
    ).next;
    expect(checkRetry(failed)).toEqual(ok({ trigger: 'retry', isTest: true, retryOfRunId: 'run_1', input }));
  });

  it.each(['RUNNING', 'PAUSED', 'SUCCEEDED'] as const)('a %s run is not retryable', (status) => {
    expect(checkRetry({ ...start(followup), status })).toEqual(err('run_not_retryable'));
  });
});

it('definitions used here are valid', () => {
  for (const d of [followup.definition, lookup.definition] as AutomationDefinition[])
    expect(parseDefinition(d).ok).toBe(true);
});
