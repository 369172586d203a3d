import {
  FakeStore,
  InMemoryAutomationRepository,
  InMemoryAutomationRunRepository,
  InMemoryConnectionRepository,
  InMemoryDataTableRepository,
  ScriptedHttpClient,
} from '@voiceplane/adapter-fakes';
import { AutomationDefinition, AutomationRun, JsonValue, parseDefinition } from '@voiceplane/domain';
import { MakeCall } from '../calls';
import { SecretCipher } from '../common';
import { ToolGateway } from '../tools';
import { AutomationEngine } from './automation-engine';
import { AutomationSteps } from './automation-steps';
import { Automation } from './ports';
import { DEFAULT_RUNS_LIMIT, RunQueries } from './run-queries';
import { SandboxAutomationControls } from './sandbox-automation-controls';

/** Reads of runs and the sandbox's controls on the in-memory repositories (proven by their contract suites). */

const START = new Date('2030-05-01T12:00:00.000Z');
const OWNER = 7;
const WAIT: AutomationDefinition = {
  trigger: { kind: 'trigger.assistant_event', event: 'call.ended' },
  steps: [{ name: 'wait', kind: 'delay', config: { minutes: 30 } }],
};

const noCalls = new Proxy(
  {},
  {
    get: () => () => {
      throw new Error('no calls in these tests');
    },
  },
) as MakeCall;

async function setup() {
  const store = new FakeStore(START);
  const http = new ScriptedHttpClient();
  const automations = new InMemoryAutomationRepository();
  const runs = new InMemoryAutomationRunRepository(automations);
  const connections = new InMemoryConnectionRepository(() => store.clock.now());
  const steps = new AutomationSteps({
    http,
    gateway: new ToolGateway(http, store.secrets, store.clock),
    tables: new InMemoryDataTableRepository(() => store.clock.now()),
    connections,
    cipher: new SecretCipher(async () => 'key'),
    makeCall: noCalls,
    chatapp: null,
    clock: store.clock,
  });
  const engine = new AutomationEngine(
    { automations, runs, uow: store.uow },
    { steps, scheduler: store.jobs },
    store.clock,
    store.ids,
  );
  const automation: Automation = {
    id: 'aut_1',
    userId: OWNER,
    name: 'A',
    templateKey: 'delayed_followup_call',
    status: 'enabled',
    bindingType: 'assistant_event',
    assistantId: 1,
    bound: true,
    webhookToken: null,
    toolId: null,
    liveVersionId: 'ver_1',
    lastTest: null,
    createdAt: START,
    updatedAt: START,
  };
  await automations.create(automation, {
    id: 'ver_1',
    automationId: 'aut_1',
    number: 1,
    state: 'published',
    params: {},
    definition: WAIT as unknown as JsonValue,
    restoredFromVersionId: null,
    testRunId: null,
    createdAt: START,
    publishedAt: START,
  });
  const parsed = parseDefinition(WAIT);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.error));
  const start = async () => {
    const run = await engine.start(
      automation,
      { id: 'ver_1', definition: parsed.value },
      { trigger: 'assistant_event', isTest: false, input: {} },
    );
    if (run === null) throw new Error('no run started');
    store.clock.advance(1_000);
    return run;
  };
  return {
    store,
    start,
    connections,
    queries: new RunQueries(automations, runs),
    controls: new SandboxAutomationControls(runs, engine, connections, store.clock),
  };
}

describe('RunQueries', () => {
  it("lists the owner's runs newest first up to the limit, and reads one by id", async () => {
    const { start, queries } = await setup();
    const runs: AutomationRun[] = [];
    for (let i = 0; i < DEFAULT_RUNS_LIMIT + 1; i++) runs.push(await start());

    const listed = await queries.read(OWNER, 'aut_1', () => ({}));
    expect(listed.ok && listed.value.kind === 'list' && listed.value.runs.map((r) => r.id)).toEqual(
      runs
        .slice(1)
        .reverse()
        .map((r) => r.id),
    );
    const two = await queries.read(OWNER, 'aut_1', () => ({ limit: 2 }));
    expect(two.ok && two.value.kind === 'list' && two.value.runs.length).toBe(2);
    expect(await queries.read(OWNER, 'aut_1', () => ({ runId: runs[0].id }))).toEqual({
      ok: true,
      value: { kind: 'run', run: runs[0] },
    });
  });

  it("refuses another account's automation before reading the request, and an unknown run", async () => {
    const { start, queries } = await setup();
    const run = await start();
    const requestOf = jest.fn(() => ({ runId: run.id }));

    expect(await queries.read(OWNER + 1, 'aut_1', requestOf)).toEqual({ ok: false, error: 'automation_not_found' });
    expect(requestOf).not.toHaveBeenCalled();
    expect(await queries.read(OWNER, 'aut_1', () => ({ runId: 'run_unknown' }))).toEqual({
      ok: false,
      error: 'run_not_found',
    });
    expect(await queries.read(OWNER, 'aut_1', () => ({ runId: null }))).toEqual({ ok: false, error: 'run_not_found' });
  });
});

describe('SandboxAutomationControls', () => {
  it('resumes a paused run of the caller now, once', async () => {
    const { start, controls } = await setup();
    const run = await start();
    expect(run.status).toBe('PAUSED');

    expect(await controls.resumeNow(OWNER + 1, run.id)).toEqual({ ok: false, error: 'run_not_found' });
    expect(await controls.resumeNow(OWNER, run.id)).toEqual({
      ok: true,
      value: expect.objectContaining({ id: run.id, status: 'SUCCEEDED' }),
    });
    expect(await controls.resumeNow(OWNER, run.id)).toEqual({ ok: false, error: 'run_not_paused' });
  });

  it("sets the caller's connection as a check would, reading the status only for an own connection", async () => {
    const { store, connections, controls } = await setup();
    const connection = await connections.create(OWNER, {
      name: 'CRM',
      kind: 'http_api',
      baseUrl: 'https://crm.example.com',
      notesPath: '/notes',
      authType: 'none',
      authHeaderName: null,
      sealedAuthValue: null,
    });
    const statusOf = jest.fn((): 'broken' => 'broken');

    expect(await controls.setConnectionStatus(OWNER + 1, connection.id, statusOf)).toEqual({
      ok: false,
      error: 'connection_not_found',
    });
    expect(statusOf).not.toHaveBeenCalled();
    expect(await controls.setConnectionStatus(OWNER, connection.id, statusOf)).toEqual({
      ok: true,
      value: expect.objectContaining({
        id: connection.id,
        status: 'broken',
        lastError: 'Set broken by the sandbox.',
        lastCheckedAt: store.clock.now(),
      }),
    });
    expect(await controls.setConnectionStatus(OWNER, connection.id, () => 'connected')).toEqual({
      ok: true,
      value: expect.objectContaining({ status: 'connected', lastError: null }),
    });
  });
});
