import { ManualClock } from '@voiceplane/adapter-fakes';
import { TypeormAutomationRunRepository, Database } from '@voiceplane/adapter-typeorm';
import {
  AutomationEngine,
  AutomationRunSweeper,
  AutomationSteps,
  callEndedKey,
  continueJobKey,
  RUN_LEASE_MS,
  SecretCipher,
  stepWebhookId,
  TOKENS,
  TriggerWebhook,
  type Automation,
  type DataTableRepository,
  type Token,
} from '@voiceplane/application';
import { AutomationRun, JsonObject, PinnedVersion, startRun, startStep } from '@voiceplane/domain';
import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';
import { WebhookReceiver } from '@voiceplane/stand-ins/fault/webhook-receiver';
import { createAssistant } from '@voiceplane/stand-ins/calls/fixtures';

/**
 * Runs nobody waits for, on real PostgreSQL: HTTP steps retried on the delivery schedule (a
 * controllable clock stands in for the minutes between attempts), and runs whose worker was lost
 * taken over by exactly one of two racing sweepers — resumed, or failed as `worker_lost` past the
 * execution limit.
 */

let t: TestApi;
let receiver: WebhookReceiver;
const get = <T>(token: Token<T>): T => t.runtime.container.get(token);
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

beforeAll(async () => {
  t = await createTestApi({ startBackground: false });
  receiver = await WebhookReceiver.start();
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

/** An engine as a worker process has it: its own clock and lease owner, the same database; no jitter. */
function engineWith(
  clock: ManualClock,
  tables: DataTableRepository = get(TOKENS.DataTableRepository),
): AutomationEngine {
  const steps = new AutomationSteps({
    http: get(TOKENS.OutboundHttpClient),
    gateway: get(TOKENS.ToolGateway),
    tables,
    connections: get(TOKENS.ConnectionRepository),
    cipher: t.runtime.container.get(SecretCipher),
    makeCall: get(TOKENS.MakeCall),
    chatapp: null,
    clock,
  });
  return new AutomationEngine(
    {
      automations: get(TOKENS.AutomationRepository),
      runs: get(TOKENS.AutomationRunRepository),
      uow: get(TOKENS.UnitOfWork),
    },
    { steps, scheduler: get(TOKENS.JobScheduler) },
    clock,
    get(TOKENS.Ids),
    silent,
    { random: () => 0.5 },
  );
}

async function forwarder(user: TestUser, path: string): Promise<{ automation: Automation; version: PinnedVersion }> {
  const assistant = await createAssistant(t, user);
  const res = await t.http
    .post('/api/user/automate/templates/post_call_webhook_forward')
    .set(user.auth)
    .send({ assistant_id: assistant, params: { url: receiver.url(path) }, test: false });
  expect(res.status).toBe(201);
  const automation = (await get(TOKENS.AutomationRepository).findById(res.body.automation_id)) as Automation;
  const version = (await get(TOKENS.AutomationEngine).version(automation.liveVersionId as string)) as PinnedVersion;
  return { automation, version };
}

const callInput = (automation: Automation, callId: number): JsonObject => ({
  event: 'call.ended',
  assistant_id: automation.assistantId,
  call: { id: callId, status: 'completed', customer_phone: '+14155551234' },
});

const detail = async (user: TestUser, automationId: string, runId: string) =>
  (await t.http.get(`/api/user/automate/flows/${automationId}/runs?run_id=${runId}`).set(user.auth)).body.run;

const jobAt = async (runId: string): Promise<Date | null> => {
  const [row] = await t.db.dataSource.query(`SELECT run_at FROM scheduled_jobs WHERE key = $1`, [
    continueJobKey(runId),
  ]);
  return row ? new Date(row.run_at) : null;
};

describe('HTTP steps retried like webhook deliveries', () => {
  it('a receiver failing twice then answering: SUCCEEDED after three attempts 5 s and 30 s apart, one webhook-id', async () => {
    const user = await t.createUser();
    const { automation, version } = await forwarder(user, '/flaky');
    const answers = [503, 500, 200];
    receiver.respondWith(() => ({ status: answers.shift() ?? 200, body: '{}' }));
    const clock = new ManualClock(new Date());
    const engine = engineWith(clock);

    const first = (await engine.start(automation, version, {
      trigger: 'assistant_event',
      isTest: false,
      input: callInput(automation, 901),
      eventId: callEndedKey(901),
    })) as AutomationRun;
    expect(first.status).toBe('RUNNING');
    const firstRetry = new Date(clock.now().getTime() + 5_000);
    expect(await jobAt(first.id)).toEqual(firstRetry);
    const waiting = await detail(user, automation.id, first.id);
    expect(waiting).toMatchObject({ status: 'RUNNING' });
    expect(waiting.steps[1]).toMatchObject({
      name: 'forward_webhook',
      status: 'RUNNING',
      attempts: [{ status_code: 503, error: 'http_error' }],
    });

    clock.advance(4_000);
    expect(await engine.continue(automation.id, first.id)).toBeNull(); // not due yet
    clock.advance(1_000);
    expect(await engineWith(clock).continue(automation.id, first.id)).toMatchObject({ status: 'RUNNING' });
    expect(await jobAt(first.id)).toEqual(new Date(clock.now().getTime() + 30_000));
    clock.advance(30_000);
    // Two workers handed the due retry: one goes on.
    const done = await Promise.all([
      engineWith(clock).continue(automation.id, first.id),
      engineWith(clock).continue(automation.id, first.id),
    ]);
    expect(done.filter((r) => r !== null)).toHaveLength(1);

    const run = await detail(user, automation.id, first.id);
    expect(run.status).toBe('SUCCEEDED');
    expect(run.steps[1]).toMatchObject({ status: 'SUCCEEDED', classification: 'ok', error: null });
    expect(run.steps[1].attempts.map((a: { status_code: number }) => a.status_code)).toEqual([503, 500, 200]);
    const sent = receiver.received.filter((r) => r.path === '/flaky');
    expect(sent).toHaveLength(3);
    expect(new Set(sent.map((r) => r.webhookId))).toEqual(new Set([stepWebhookId(first.id, 'forward_webhook')]));
    expect(sent.every((r) => r.headers['x-voiceplane-event'] === 'automation_http')).toBe(true);
  });

  it('a step that exhausts its 8 attempts fails the run with its last status; a 410 stops at once', async () => {
    const user = await t.createUser();
    const { automation, version } = await forwarder(user, '/down');
    receiver.respondWith((req) => ({ status: req.path === '/gone' ? 410 : 502, body: 'no' }));
    const clock = new ManualClock(new Date());
    const engine = engineWith(clock);
    const run = (await engine.start(automation, version, {
      trigger: 'assistant_event',
      isTest: false,
      input: callInput(automation, 902),
      eventId: callEndedKey(902),
    })) as AutomationRun;
    let last: AutomationRun | null = run;
    for (let attempt = 2; attempt <= 8; attempt++) {
      clock.set((await jobAt(run.id)) as Date);
      last = await engine.continue(automation.id, run.id);
    }
    expect(last).toMatchObject({ status: 'FAILED' });
    const failed = await detail(user, automation.id, run.id);
    expect(failed.steps[1]).toMatchObject({
      status: 'FAILED',
      classification: 'step_error',
      error: 'The target answered HTTP 502.',
    });
    expect(failed.steps[1].attempts).toHaveLength(8);
    expect(receiver.received.filter((r) => r.path === '/down')).toHaveLength(8);

    const other = await t.createUser();
    const gone = await forwarder(other, '/gone');
    const stopped = await engine.start(gone.automation, gone.version, {
      trigger: 'assistant_event',
      isTest: false,
      input: callInput(gone.automation, 903),
      eventId: callEndedKey(903),
    });
    expect(stopped).toMatchObject({ status: 'FAILED' });
    expect((await detail(other, gone.automation.id, (stopped as AutomationRun).id)).steps[1].attempts).toHaveLength(1);
  });

  it('test runs try once: the user sees the outcome in the answer', async () => {
    const user = await t.createUser();
    const assistant = await createAssistant(t, user);
    receiver.respondWith(() => ({ status: 500, body: 'down' }));
    const res = await t.http
      .post('/api/user/automate/templates/post_call_webhook_forward')
      .set(user.auth)
      .send({ assistant_id: assistant, params: { url: receiver.url('/once') } });
    expect(res.body).toMatchObject({ status: 'test_failed' });
    expect(receiver.received.filter((r) => r.path === '/once')).toHaveLength(1);
  });
});

describe('runs whose worker was lost', () => {
  /** The state a worker leaves when it dies during a step: the run stored RUNNING, the step in flight, its lease lapsing. */
  async function abandoned(
    automation: Automation,
    version: PinnedVersion,
    startedAt: Date,
    leaseUntil: Date,
  ): Promise<AutomationRun> {
    const started = startRun({
      id: get(TOKENS.Ids).token('run_', 22),
      version,
      trigger: 'assistant_event',
      isTest: false,
      retryOfRunId: null,
      input: callInput(automation, 1),
      now: startedAt,
    }).next;
    const inFlight = startStep(started, version);
    if (!inFlight.ok) throw new Error(inFlight.error);
    const runs = new TypeormAutomationRunRepository(new Database(t.db.dataSource));
    await runs.insert(automation.id, inFlight.value.next, undefined, { owner: 'wkr_dead', until: leaseUntil });
    return inFlight.value.next;
  }

  const sweepers = (clock: ManualClock) =>
    [0, 1].map(() => new AutomationRunSweeper(get(TOKENS.AutomationRunRepository), engineWith(clock), clock, silent));

  it('two sweepers racing: exactly one resumes the run from the step in flight', async () => {
    receiver.respondWith(() => ({ status: 200, body: '{}' }));
    const user = await t.createUser();
    const { automation, version } = await forwarder(user, '/resumed');
    const now = new Date();
    const run = await abandoned(
      automation,
      version,
      new Date(now.getTime() - 70_000),
      new Date(now.getTime() - 10_000),
    );
    const clock = new ManualClock(now);
    const taken = await Promise.all(sweepers(clock).map((s) => s.sweep()));
    expect(taken.reduce((a, b) => a + b, 0)).toBe(1);
    const resumed = await detail(user, automation.id, run.id);
    expect(resumed).toMatchObject({ status: 'SUCCEEDED' });
    expect(resumed.steps[1]).toMatchObject({ name: 'forward_webhook', status: 'SUCCEEDED' });
    expect(receiver.received.filter((r) => r.path === '/resumed')).toHaveLength(1);
    expect(await Promise.all(sweepers(clock).map((s) => s.sweep()))).toEqual([0, 0]);
  });

  it('past the execution limit: failed exactly once as wiring_error / worker_lost, nothing sent', async () => {
    const user = await t.createUser();
    const { automation, version } = await forwarder(user, '/too-late');
    const now = new Date();
    const run = await abandoned(
      automation,
      version,
      new Date(now.getTime() - 11 * 60_000),
      new Date(now.getTime() - 10 * 60_000),
    );
    const clock = new ManualClock(now);
    await Promise.all(sweepers(clock).map((s) => s.sweep()));
    const failed = await detail(user, automation.id, run.id);
    expect(failed.status).toBe('FAILED');
    expect(failed.steps[1]).toEqual({
      name: 'forward_webhook',
      status: 'FAILED',
      classification: 'wiring_error',
      error: 'worker_lost',
    });
    expect(receiver.received.filter((r) => r.path === '/too-late')).toHaveLength(0);
    const [{ lease_owner: owner }] = await t.db.dataSource.query(
      `SELECT lease_owner FROM automation_runs WHERE id = $1`,
      [run.id],
    );
    expect(owner).toBeNull();
  });

  it('a live worker keeps its run: its heartbeat renews the lease', async () => {
    const user = await t.createUser();
    const { automation, version } = await forwarder(user, '/live');
    const now = new Date();
    const run = await abandoned(automation, version, now, new Date(now.getTime() + 60_000));
    const clock = new ManualClock(new Date(now.getTime() + 30_000));
    expect(await Promise.all(sweepers(clock).map((s) => s.sweep()))).toEqual([0, 0]);
    const runs = get(TOKENS.AutomationRunRepository);
    await runs.heartbeat('wkr_dead', [run.id], new Date(now.getTime() + 120_000));
    clock.advance(60_000);
    expect(await Promise.all(sweepers(clock).map((s) => s.sweep()))).toEqual([0, 0]);
  });
});

describe('a sync hook run whose caller stopped waiting', () => {
  it('is stored, leased, before the 504; its api lost mid-step, one of two racing sweepers finishes it', async () => {
    const user = await t.createUser();
    const table = (
      await t.http
        .post('/api/user/automate/tables')
        .set(user.auth)
        .send({
          name: 'Orders',
          columns: [
            { name: 'order_number', type: 'string' },
            { name: 'status', type: 'string' },
          ],
        })
    ).body.data.id;
    await t.http
      .post(`/api/user/automate/tables/${table}/rows`)
      .set(user.auth)
      .send({ rows: [{ values: { order_number: 'A-1', status: 'shipped' } }] });
    const applied = await t.http
      .post('/api/user/automate/templates/midcall_lookup_table')
      .set(user.auth)
      .send({ params: { table_id: table, key_column: 'order_number' } });
    expect(applied.status).toBe(201);
    const automation = (await get(TOKENS.AutomationRepository).findById(applied.body.automation_id)) as Automation;

    // The accepting api: its lookup never comes back (the process is about to die), its reply wait is over at once.
    const real = get(TOKENS.DataTableRepository);
    const stuck: DataTableRepository = Object.assign(Object.create(real) as DataTableRepository, {
      lookup: () => new Promise<never>(() => undefined),
    });
    const clock = new ManualClock(new Date());
    const api = engineWith(clock, stuck);
    const hooks = new TriggerWebhook(
      get(TOKENS.AutomationRepository),
      api,
      get(TOKENS.RateLimiter),
      get(TOKENS.Ids),
      silent,
      { ratePerMinute: 60, replyWaitMs: 0 },
    );
    const answer = await hooks.trigger(automation, { key: 'A-1' });
    expect(answer).toEqual({ kind: 'timeout', runId: expect.stringMatching(/^run_/) });
    const runId = (answer as { runId: string }).runId;
    const stored = await detail(user, automation.id, runId);
    expect(stored).toMatchObject({ status: 'RUNNING', trigger: 'webhook' });
    expect(stored.steps[1]).toMatchObject({ name: 'lookup_row', status: 'RUNNING' });
    const [{ lease_owner: owner }] = await t.db.dataSource.query(
      `SELECT lease_owner FROM automation_runs WHERE id = $1`,
      [runId],
    );
    expect(owner).toBe(api.leases.owner);

    api.leases.release(runId); // its heartbeat stops with the process
    clock.advance(RUN_LEASE_MS + 1_000);
    const sweepers = [0, 1].map(
      () => new AutomationRunSweeper(get(TOKENS.AutomationRunRepository), engineWith(clock), clock, silent),
    );
    expect((await Promise.all(sweepers.map((x) => x.sweep()))).reduce((a, b) => a + b, 0)).toBe(1);
    const finished = await detail(user, automation.id, runId);
    expect(finished.status).toBe('SUCCEEDED');
    expect(finished.steps.map((step: { status: string }) => step.status)).toEqual([
      'SUCCEEDED',
      'SUCCEEDED',
      'SUCCEEDED',
    ]);
  });
});
