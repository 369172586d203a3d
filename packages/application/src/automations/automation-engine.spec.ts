import {
  FakeStore,
  InMemoryAutomationRepository,
  InMemoryAutomationRunRepository,
  InMemoryDataTableRepository,
  ScriptedHttpClient,
} from '@voiceplane/adapter-fakes';
import { AutomationDefinition, JsonValue, parseDefinition, PinnedVersion } from '@voiceplane/domain';
import { MakeCall } from '../calls';
import { SecretCipher } from '../common';
import { ToolGateway } from '../tools';
import { AutomationEngine, AUTOMATION_RESUME_JOB, resumeJobKey } from './automation-engine';
import { AutomationSteps } from './automation-steps';
import { Automation, ConnectionRepository } from './ports';

const START = new Date('2030-05-01T12:00:00.000Z');

/** Connections and calls are not part of these definitions. */
const notHere = new Proxy(
  {},
  {
    get: (_, method) => () => {
      throw new Error(`not part of these tests (${String(method)})`);
    },
  },
) as ConnectionRepository & MakeCall;

function setup() {
  const store = new FakeStore(START);
  const http = new ScriptedHttpClient();
  const automations = new InMemoryAutomationRepository();
  const runs = new InMemoryAutomationRunRepository(automations);
  const tables = new InMemoryDataTableRepository(() => store.clock.now());
  const steps = new AutomationSteps({
    http,
    gateway: new ToolGateway(http, store.secrets, store.clock),
    tables,
    connections: notHere,
    cipher: new SecretCipher(async () => 'key'),
    makeCall: notHere,
    chatapp: null,
    clock: store.clock,
  });
  const engine = new AutomationEngine(
    { automations, runs, uow: store.uow },
    { steps, scheduler: store.jobs },
    store.clock,
    store.ids,
  );
  return { store, http, automations, runs, tables, engine };
}

async function automationWith(
  s: ReturnType<typeof setup>,
  definition: AutomationDefinition,
): Promise<{ automation: Automation; version: PinnedVersion }> {
  const parsed = parseDefinition(definition);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.error));
  const automation: Automation = {
    id: 'aut_1',
    userId: 7,
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
  await s.automations.create(automation, {
    id: 'ver_1',
    automationId: 'aut_1',
    number: 1,
    state: 'published',
    params: {},
    definition: definition as unknown as JsonValue,
    restoredFromVersionId: null,
    testRunId: null,
    createdAt: START,
    publishedAt: START,
  });
  return { automation, version: { id: 'ver_1', definition: parsed.value } };
}

const DELAYED: AutomationDefinition = {
  trigger: { kind: 'trigger.assistant_event', event: 'call.ended' },
  steps: [
    { name: 'check', kind: 'condition', config: { field: '{{call.status}}', op: 'eq', value: 'no-answer' } },
    { name: 'wait', kind: 'delay', config: { minutes: 30 } },
    {
      name: 'forward',
      kind: 'http.request',
      config: { method: 'POST', url: 'https://hooks.example.com/x', body: '{{call}}' },
    },
  ],
};

describe('AutomationEngine', () => {
  it('parks at a delay with a keyed resume job, and resumes once when due on the pinned version', async () => {
    const s = setup();
    await s.store.secrets.create(7, 'whsec_x');
    const { automation, version } = await automationWith(s, DELAYED);
    const run = await s.engine.start(automation, version, {
      trigger: 'assistant_event',
      isTest: false,
      input: { call: { status: 'no-answer' } },
    });
    expect(run).toMatchObject({ status: 'PAUSED', resumeAt: new Date(START.getTime() + 30 * 60_000) });
    expect(s.store.jobs.jobs()).toEqual([
      expect.objectContaining({ kind: AUTOMATION_RESUME_JOB, key: resumeJobKey(run!.id), runAt: run!.resumeAt }),
    ]);
    expect(await s.runs.find('aut_1', run!.id)).toEqual(run);

    expect(await s.engine.resume('aut_1', run!.id)).toBeNull();
    s.store.clock.advance(30 * 60_000);
    s.http.answer({ statusCode: 200, body: '{"ok":true}' });
    const [first, second] = await Promise.all([s.engine.resume('aut_1', run!.id), s.engine.resume('aut_1', run!.id)]);
    expect([first?.status, second]).toEqual(['SUCCEEDED', null]);
    expect(s.http.requests).toHaveLength(1);
    expect(JSON.parse(s.http.requests[0].body as string)).toEqual({ status: 'no-answer' });
    expect((await s.runs.find('aut_1', run!.id))?.steps.map((x) => [x.name, x.status])).toEqual([
      ['call_ended_trigger', 'SUCCEEDED'],
      ['check', 'SUCCEEDED'],
      ['wait', 'SUCCEEDED'],
      ['forward', 'SUCCEEDED'],
    ]);
  });

  it('skips the rest after a false condition and still succeeds, stored once', async () => {
    const s = setup();
    const { automation, version } = await automationWith(s, DELAYED);
    const run = await s.engine.start(automation, version, {
      trigger: 'test',
      isTest: true,
      input: { call: { status: 'completed' } },
    });
    expect(run?.status).toBe('SUCCEEDED');
    expect(run?.steps.map((x) => x.status)).toEqual(['SUCCEEDED', 'SUCCEEDED', 'SKIPPED', 'SKIPPED']);
    expect(s.store.jobs.jobs()).toEqual([]);
    expect(await s.runs.list('aut_1', 10)).toEqual([run]);
  });

  it('starts one run per bus event', async () => {
    const s = setup();
    const { automation, version } = await automationWith(s, DELAYED);
    const request = {
      trigger: 'assistant_event' as const,
      isTest: false,
      input: { call: { status: 'completed' } },
      eventId: 'evt_1',
    };
    expect(await s.engine.start(automation, version, request)).not.toBeNull();
    expect(await s.engine.start(automation, version, request)).toBeNull();
    expect(await s.runs.list('aut_1', 10)).toHaveLength(1);
  });

  it('looks a row up and replies with it; a missing path is a wiring error', async () => {
    const s = setup();
    const table = await s.tables.create(7, 'Orders', [
      { name: 'sku', type: 'string' },
      { name: 'stock', type: 'number' },
    ]);
    if (table === 'name_taken') throw new Error('unexpected');
    await s.tables.addRows(table.id, [{ sku: 'A-1', stock: 3 }], 10);
    const { automation, version } = await automationWith(s, {
      trigger: { kind: 'trigger.webhook', mode: 'sync' },
      steps: [
        {
          name: 'lookup_row',
          kind: 'table.lookup',
          config: { table_id: table.id, key_column: 'sku', value: '{{trigger.key}}' },
        },
        { name: 'respond', kind: 'respond', config: { body: '{{steps.lookup_row.output}}' } },
      ],
    });
    const found = await s.engine.start(automation, version, { trigger: 'tool', isTest: false, input: { key: ' a-1' } });
    expect(found?.steps[2].output).toEqual({ found: true, row: { sku: 'A-1', stock: 3 } });
    const wiring = await s.engine.start(automation, version, { trigger: 'tool', isTest: false, input: {} });
    expect(wiring?.status).toBe('FAILED');
    expect(wiring?.steps[1]).toMatchObject({
      status: 'FAILED',
      classification: 'wiring_error',
      failure: { reason: 'missing_path', detail: 'trigger.key' },
    });
  });
});
