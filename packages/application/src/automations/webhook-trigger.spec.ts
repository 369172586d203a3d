import {
  FakeStore,
  InMemoryAutomationRepository,
  InMemoryAutomationRunRepository,
  InMemoryDataTableRepository,
  InMemoryRateLimitStore,
  RecordingLogger,
  ScriptedHttpClient,
} from '@voiceplane/adapter-fakes';
import { AutomationDefinition, JsonValue, TableRow } from '@voiceplane/domain';
import { MakeCall } from '../calls';
import { RateLimiter } from '../ratelimit';
import { SecretCipher } from '../common';
import { ToolGateway } from '../tools';
import { AutomationEngine } from './automation-engine';
import { AutomationRunSweeper, RUN_LEASE_MS } from './run-leases';
import { AutomationSteps } from './automation-steps';
import { Automation, AutomationVersion, ConnectionRepository } from './ports';
import { previousPublished } from './restore-automation';
import { tokensMatch, TriggerWebhook } from './webhook-trigger';

const START = new Date('2030-05-01T12:00:00.000Z');
const TOKEN = 'Vb2Kq8Lm4Xz7Pw1Rt5Yn9Hc3Jd6Gf0Sa';

const notHere = new Proxy(
  {},
  {
    get: (_, method) => () => {
      throw new Error(`not part of these tests (${String(method)})`);
    },
  },
) as ConnectionRepository & MakeCall;

/** A table whose lookups wait until the test lets them answer: a step still running when the reply is due. */
class HeldTables extends InMemoryDataTableRepository {
  private release: (() => void) | null = null;
  held = false;

  override async lookup(
    userId: number,
    tableId: number,
    column: string,
    value: string,
  ): Promise<TableRow | null | 'no_table'> {
    if (this.held)
      await new Promise<void>((resolve) => {
        this.release = resolve;
      });
    return super.lookup(userId, tableId, column, value);
  }

  letGo(): void {
    this.release?.();
  }
}

async function setup(mode: 'sync' | 'async', replyWaitMs = 10_000) {
  const store = new FakeStore(START);
  const automations = new InMemoryAutomationRepository();
  const runs = new InMemoryAutomationRunRepository(automations);
  const tables = new HeldTables(() => store.clock.now());
  const http = new ScriptedHttpClient();
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
  const hooks = new TriggerWebhook(
    automations,
    engine,
    new RateLimiter(new InMemoryRateLimitStore(), store.clock),
    store.ids,
    new RecordingLogger(),
    { ratePerMinute: 2, replyWaitMs },
  );
  const table = await tables.create(7, 'Orders', [
    { name: 'order_number', type: 'string' },
    { name: 'status', type: 'string' },
  ]);
  if (table === 'name_taken') throw new Error('table');
  await tables.addRows(table.id, [{ order_number: 'A-1', status: 'shipped' }], 100);
  const definition: AutomationDefinition = {
    trigger: { kind: 'trigger.webhook', mode },
    steps: [
      {
        name: 'lookup_row',
        kind: 'table.lookup',
        config: { table_id: table.id, key_column: 'order_number', value: '{{trigger.key}}' },
      },
      // Only a sync webhook has someone to reply to.
      ...(mode === 'sync'
        ? [{ name: 'respond', kind: 'respond' as const, config: { body: '{{steps.lookup_row.output}}' } }]
        : []),
    ],
  };
  const automation: Automation = {
    id: 'aut_1',
    userId: 7,
    name: 'A',
    templateKey: 'midcall_lookup_table',
    status: 'enabled',
    bindingType: 'webhook',
    assistantId: null,
    bound: true,
    webhookToken: TOKEN,
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
    definition: definition as unknown as JsonValue,
    restoredFromVersionId: null,
    testRunId: null,
    createdAt: START,
    publishedAt: START,
  });
  return {
    automations,
    runs,
    tables,
    engine,
    hooks,
    automation,
    steps,
    clock: store.clock,
    jobs: store.jobs,
    uow: store.uow,
    ids: store.ids,
  };
}

describe('TriggerWebhook', () => {
  it('authorises only the right token and answers a sync run with its respond body, stored after the answer', async () => {
    const s = await setup('sync');
    expect(await s.hooks.authorise('aut_1', 'x'.repeat(32))).toBeNull();
    expect(await s.hooks.authorise('aut_1', TOKEN.slice(1))).toBeNull();
    expect(await s.hooks.authorise('aut_2', TOKEN)).toBeNull();
    const automation = await s.hooks.authorise('aut_1', TOKEN);
    expect(automation?.id).toBe('aut_1');

    expect(await s.hooks.trigger(automation!, { key: 'a-1' })).toEqual({
      kind: 'replied',
      body: { found: true, row: { order_number: 'A-1', status: 'shipped' } },
    });
    await s.engine.settled();
    const [run] = await s.runs.list('aut_1', 10);
    expect(run).toMatchObject({ trigger: 'webhook', isTest: false, status: 'SUCCEEDED', input: { key: 'a-1' } });
  });

  it('answers timeout with the run id when the reply is not ready in time; the run still finishes and is stored', async () => {
    const s = await setup('sync', 0);
    s.tables.held = true;
    const answer = await s.hooks.trigger(s.automation, { key: 'A-1' });
    expect(answer).toEqual({ kind: 'timeout', runId: expect.stringMatching(/^run_/) });
    s.tables.letGo();
    await s.engine.settled();
    const run = await s.runs.find('aut_1', (answer as { runId: string }).runId);
    expect(run).toMatchObject({ status: 'SUCCEEDED', trigger: 'webhook' });
  });

  it('stores a sync run that timed out before the 504, leased; a worker finishes it once its api is gone', async () => {
    const s = await setup('sync', 0);
    s.tables.held = true;
    const answer = await s.hooks.trigger(s.automation, { key: 'A-1' });
    expect(answer).toEqual({ kind: 'timeout', runId: expect.stringMatching(/^run_/) });
    const runId = (answer as { runId: string }).runId;
    // Stored when answered, with the step in flight: not only in this process's memory.
    expect(await s.runs.find('aut_1', runId)).toMatchObject({
      status: 'RUNNING',
      trigger: 'webhook',
      steps: [{ status: 'SUCCEEDED' }, { name: 'lookup_row', status: 'RUNNING' }, { status: 'PENDING' }],
    });
    // The api dies (its lookup never comes back, its lease is not renewed); a worker's sweeper takes the run over.
    s.clock.advance(RUN_LEASE_MS + 1);
    s.tables.held = false;
    const worker = new AutomationEngine(
      { automations: s.automations, runs: s.runs, uow: s.uow },
      { steps: s.steps, scheduler: s.jobs },
      s.clock,
      s.ids,
    );
    const sweepers = [
      new AutomationRunSweeper(s.runs, worker, s.clock, new RecordingLogger()),
      new AutomationRunSweeper(s.runs, worker, s.clock, new RecordingLogger()),
    ];
    expect((await Promise.all(sweepers.map((x) => x.sweep()))).sort()).toEqual([0, 1]);
    await worker.settled();
    expect(await s.runs.find('aut_1', runId)).toMatchObject({
      status: 'SUCCEEDED',
      steps: [{ status: 'SUCCEEDED' }, { status: 'SUCCEEDED' }, { status: 'SUCCEEDED' }],
    });
    // The lost api's step ending late changes nothing: it no longer holds the run.
    s.tables.letGo();
    await s.engine.settled();
    expect(await s.runs.find('aut_1', runId)).toMatchObject({ status: 'SUCCEEDED' });
  });

  it('accepts an async run with its id stored before the answer', async () => {
    const s = await setup('async');
    s.tables.held = true;
    const answer = await s.hooks.trigger(s.automation, { key: 'A-1' });
    expect(answer).toEqual({ kind: 'accepted', runId: expect.stringMatching(/^run_/) });
    const runId = (answer as { runId: string }).runId;
    expect(await s.runs.find('aut_1', runId)).toMatchObject({ status: 'RUNNING' });
    s.tables.held = false;
    // A worker executes it; a second worker handed the same job finds nothing to take.
    expect(await s.engine.continue('aut_1', runId)).toMatchObject({ status: 'SUCCEEDED' });
    expect(await s.engine.continue('aut_1', runId)).toBeNull();
    expect(await s.runs.find('aut_1', runId)).toMatchObject({ status: 'SUCCEEDED' });
  });

  it('refuses a disabled automation or one without a live version, and counts triggers per automation', async () => {
    const s = await setup('sync');
    expect(await s.hooks.trigger({ ...s.automation, status: 'disabled' }, {})).toEqual({ kind: 'disabled' });
    expect(await s.hooks.trigger({ ...s.automation, liveVersionId: null }, {})).toEqual({ kind: 'disabled' });
    const decisions = [
      await s.hooks.admit(s.automation),
      await s.hooks.admit(s.automation),
      await s.hooks.admit(s.automation),
    ];
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, false]);
    expect((await s.hooks.admit({ ...s.automation, id: 'aut_2' })).allowed).toBe(true);
  });

  it('compares tokens of any length without throwing', () => {
    expect(tokensMatch(TOKEN, TOKEN)).toBe(true);
    expect(tokensMatch('', TOKEN)).toBe(false);
    expect(tokensMatch(`${TOKEN}x`, TOKEN)).toBe(false);
  });
});

describe('previousPublished (restore)', () => {
  const version = (number: number, state: 'draft' | 'published', publishedAt: Date | null): AutomationVersion => ({
    id: `ver_${number}`,
    automationId: 'aut_1',
    number,
    state,
    params: {},
    definition: {},
    restoredFromVersionId: null,
    testRunId: null,
    createdAt: START,
    publishedAt,
  });
  const at = (minutes: number) => new Date(START.getTime() + minutes * 60_000);

  it('is the latest publish before the live one, drafts ignored; none before the first', () => {
    const versions = [
      version(4, 'draft', null),
      version(3, 'published', at(3)),
      version(2, 'published', at(2)),
      version(1, 'published', at(1)),
    ];
    expect(previousPublished(versions, 'ver_3')?.id).toBe('ver_2');
    expect(previousPublished(versions, 'ver_2')?.id).toBe('ver_1');
    expect(previousPublished(versions, 'ver_1')).toBeNull();
    expect(previousPublished(versions, null)).toBeNull();
  });

  it('orders publishes within one clock tick by number', () => {
    const versions = [version(2, 'published', at(1)), version(1, 'published', at(1))];
    expect(previousPublished(versions, 'ver_2')?.id).toBe('ver_1');
    expect(previousPublished(versions, 'ver_1')).toBeNull();
  });
});
