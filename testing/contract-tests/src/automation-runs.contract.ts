import { AutomationRun, JsonObject } from '@voiceplane/domain';
import { Automation, AutomationRepository, AutomationRunRepository, AutomationVersion } from '@voiceplane/application';

/** What a suite needs: both repositories on empty storage, and a fresh account. */
export interface AutomationStores {
  readonly automations: AutomationRepository;
  readonly runs: AutomationRunRepository;
  newUser(): Promise<number>;
}

const at = (second: number): Date => new Date(Date.UTC(2030, 0, 1, 10, 0, second));
let counter = 0;
const nextId = (prefix: string): string => `${prefix}_${String(++counter).padStart(22, '0')}`;

function automationOf(userId: number, fields: Partial<Automation> = {}): Automation {
  return {
    id: nextId('aut'),
    userId,
    name: 'Forward',
    templateKey: 'post_call_webhook_forward',
    status: 'enabled',
    bindingType: 'assistant_event',
    assistantId: 101,
    bound: true,
    webhookToken: null,
    toolId: null,
    liveVersionId: null,
    lastTest: null,
    createdAt: at(0),
    updatedAt: at(0),
    ...fields,
  };
}

function versionOf(automationId: string): AutomationVersion {
  const definition: JsonObject = {
    trigger: { kind: 'trigger.assistant_event', event: 'call.ended' },
    steps: [{ name: 'wait', kind: 'delay', config: { minutes: 5 } }],
  };
  return {
    id: nextId('ver'),
    automationId,
    number: 1,
    state: 'draft',
    params: { url: 'https://example.com' },
    definition,
    restoredFromVersionId: null,
    testRunId: null,
    createdAt: at(0),
    publishedAt: null,
  };
}

function runOf(versionId: string, second: number, fields: Partial<AutomationRun> = {}): AutomationRun {
  return {
    id: nextId('run'),
    versionId,
    trigger: 'assistant_event',
    isTest: false,
    retryOfRunId: null,
    input: { call: { id: 1 } },
    attempt: 1,
    status: 'PAUSED',
    steps: [
      {
        name: 'call_ended_trigger',
        status: 'SUCCEEDED',
        classification: 'ok',
        failure: null,
        output: { call: { id: 1 } },
      },
      {
        name: 'wait',
        status: 'PAUSED',
        classification: 'paused_at_delay',
        failure: null,
        output: { resume_at: at(300).toISOString() },
      },
    ],
    startedAt: at(second),
    runningSince: null,
    executedMs: 12,
    resumeAt: at(300),
    retryAt: null,
    failedStep: null,
    finishedAt: null,
    ...fields,
  };
}

/** The automation and run repositories' behaviour, run against every implementation. */
export function automationRunsContract(name: string, open: () => Promise<AutomationStores>): void {
  describe(`AutomationRunRepository contract: ${name}`, () => {
    let s: AutomationStores;
    let userId: number;
    let automation: Automation;
    let version: AutomationVersion;

    beforeEach(async () => {
      s = await open();
      userId = await s.newUser();
      automation = automationOf(userId);
      version = versionOf(automation.id);
      await s.automations.create(automation, version);
    });

    it('stores automations with their first version, for their owner only', async () => {
      expect(await s.automations.find(userId, automation.id)).toEqual(automation);
      expect(await s.automations.find(userId + 1, automation.id)).toBeNull();
      expect(await s.automations.findById(automation.id)).toEqual(automation);
      expect(await s.automations.findVersion(version.id)).toEqual(version);
      await s.automations.publishVersion(version.id, 'run_x', at(9));
      expect(await s.automations.findVersion(version.id)).toMatchObject({
        state: 'published',
        publishedAt: at(9),
        testRunId: 'run_x',
      });
      await s.automations.update(
        automation.id,
        { status: 'disabled', lastTest: { runId: 'run_x', runStatus: 'SUCCEEDED', testedAt: at(9) } },
        at(10),
      );
      expect(await s.automations.find(userId, automation.id)).toMatchObject({
        status: 'disabled',
        lastTest: { runId: 'run_x', runStatus: 'SUCCEEDED', testedAt: at(9) },
        updatedAt: at(10),
      });
    });

    it('lists enabled bound assistant-event automations and finds the conflicting one', async () => {
      const other = automationOf(userId, { status: 'disabled', createdAt: at(1) });
      await s.automations.create(other, versionOf(other.id));
      expect((await s.automations.listBoundToAssistant(101)).map((a) => a.id)).toEqual([automation.id]);
      expect((await s.automations.findConflict(userId, 101, 'post_call_webhook_forward'))?.id).toBe(automation.id);
      expect(await s.automations.findConflict(userId, 101, 'crm_note_on_call')).toBeNull();
      expect(await s.automations.findConflict(userId, 102, 'post_call_webhook_forward')).toBeNull();
    });

    it('keeps a run with its dates, newest first, and finds it only under its automation', async () => {
      const older = runOf(version.id, 1);
      const newer = runOf(version.id, 2, { status: 'SUCCEEDED', resumeAt: null, finishedAt: at(3) });
      expect(await s.runs.insert(automation.id, older)).toBe(true);
      expect(await s.runs.insert(automation.id, newer)).toBe(true);
      expect(await s.runs.find(automation.id, older.id)).toEqual(older);
      expect(await s.runs.find('aut_other', older.id)).toBeNull();
      expect((await s.runs.list(automation.id, 10)).map((r) => r.id)).toEqual([newer.id, older.id]);
      expect((await s.runs.list(automation.id, 1)).map((r) => r.id)).toEqual([newer.id]);
      expect(await s.runs.locate(userId, older.id)).toEqual({ automationId: automation.id, run: older });
      expect(await s.runs.locate(userId + 1, older.id)).toBeNull();
      expect(await s.runs.findAnywhere(older.id)).toEqual({ automationId: automation.id, run: older });
      expect(await s.runs.findAnywhere('run_missing')).toBeNull();
    });

    it('starts nothing for an event it already has a run for', async () => {
      expect(await s.runs.insert(automation.id, runOf(version.id, 1), 'evt_1')).toBe(true);
      expect(await s.runs.insert(automation.id, runOf(version.id, 2), 'evt_1')).toBe(false);
      expect(await s.runs.insert(automation.id, runOf(version.id, 3), 'evt_2')).toBe(true);
      expect(await s.runs.list(automation.id, 10)).toHaveLength(2);
    });

    it('writes a run conditionally: of concurrent resumes exactly one wins', async () => {
      const paused = runOf(version.id, 1);
      await s.runs.insert(automation.id, paused);
      const resumed = { ...paused, status: 'RUNNING' as const, resumeAt: null, runningSince: at(300) };
      const wins = await Promise.all(
        Array.from({ length: 5 }, () => s.runs.saveIfStatus(automation.id, resumed, 'PAUSED')),
      );
      expect(wins.filter(Boolean)).toHaveLength(1);
      expect(await s.runs.find(automation.id, paused.id)).toEqual(resumed);
      const done = { ...resumed, status: 'SUCCEEDED' as const, runningSince: null, finishedAt: at(301) };
      await s.runs.save(automation.id, done);
      expect(await s.runs.find(automation.id, paused.id)).toEqual(done);
    });

    it('leases a running run: writes only by its holder, one claim of a lapsed lease, heartbeats keep it', async () => {
      const running = runOf(version.id, 1, { status: 'RUNNING', resumeAt: null });
      await s.runs.insert(automation.id, running, undefined, { owner: 'wkr_a', until: at(60) });
      expect(await s.runs.claimLapsed('wkr_b', at(30), at(90), 10)).toEqual([]);
      expect(await s.runs.saveHeld(automation.id, running, 'wkr_b', null)).toBe(false);
      expect(await s.runs.saveHeld(automation.id, running, 'wkr_a', { owner: 'wkr_a', until: at(70) })).toBe(true);
      await s.runs.heartbeat('wkr_a', [running.id], at(100));
      expect(await s.runs.claimLapsed('wkr_b', at(90), at(150), 10)).toEqual([]);
      // The holder stops answering: of several sweepers exactly one takes the run.
      const claims = await Promise.all(
        ['wkr_b', 'wkr_c', 'wkr_d'].map((o) => s.runs.claimLapsed(o, at(101), at(161), 10)),
      );
      expect(claims.flat()).toEqual([{ automationId: automation.id, run: running }]);
      expect(await s.runs.saveHeld(automation.id, running, 'wkr_a', null)).toBe(false);
      expect(await s.runs.claimLapsed('wkr_e', at(120), at(180), 10)).toEqual([]);
    });

    it('claims a run waiting for a worker once it is due, for one caller', async () => {
      const queued = runOf(version.id, 1, { status: 'RUNNING', resumeAt: null });
      await s.runs.insert(automation.id, queued, undefined, { owner: null, until: at(50) });
      expect(await s.runs.claim(automation.id, queued.id, 'wkr_a', at(49), at(110))).toBeNull();
      const claims = await Promise.all(
        ['wkr_a', 'wkr_b'].map((o) => s.runs.claim(automation.id, queued.id, o, at(50), at(110))),
      );
      expect(claims.filter((c) => c !== null)).toEqual([queued]);
      expect(await s.runs.claim('aut_other', queued.id, 'wkr_c', at(200), at(260))).toBeNull();
      const done = { ...queued, status: 'SUCCEEDED' as const };
      await s.runs.save(automation.id, done);
      expect(await s.runs.claimLapsed('wkr_c', at(500), at(560), 10)).toEqual([]);
    });
  });
}
