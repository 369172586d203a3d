import { randomBytes } from 'node:crypto';
import {
  AutomationEngine,
  AutomationRunSweeper,
  AutomationSteps,
  EventConsumer,
  SecretCipher,
  stepWebhookId,
  TOKENS,
  type Automation,
  type Token,
} from '@voiceplane/application';
import { deleteBusTopology } from '@voiceplane/adapter-rabbitmq';
import { ManualClock } from '@voiceplane/adapter-fakes';
import { amqpUrl, createTestApi, createTestDatabase, TestApi, TestDatabase } from '@voiceplane/test-env';
import { createAssistant } from '../calls/fixtures';
import { eventually, WebhookReceiver } from './webhook-receiver';
import { WorkerProcess } from './worker-process';

/**
 * Automation runs survive their processes, with real processes: a worker SIGKILLed in the middle
 * of a run's HTTP step leaves the run to the sweepers, and of two racing sweepers exactly one
 * finishes it (the receiver sees the same webhook-id again and nothing more); an async hook run
 * accepted (202) by an api that is then shut down is executed by a worker started afterwards.
 *
 * Needs PostgreSQL and RabbitMQ (DATABASE_URL, AMQP_URL) and a built worker (`npx tsc -b`).
 */
const runOrSkip = process.env.DATABASE_URL && amqpUrl ? describe : describe.skip;
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

runOrSkip('automation runs whose process dies', () => {
  const run = randomBytes(4).toString('hex');
  const exchange = `vp-autokill-${run}.events`;
  const queuePrefix = `vp-autokill-${run}`;
  let db: TestDatabase;
  let api: TestApi;
  let receiver: WebhookReceiver;
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    api = await createTestApi({ db, startBackground: false });
    receiver = await WebhookReceiver.start(() => ({ status: 200, body: '{}' }));
  });

  afterAll(async () => {
    for (const worker of workers) await worker.kill().catch(() => undefined);
    const consumers = api.runtime.container.getAll<EventConsumer>(TOKENS.EventConsumer).map((c) => c.options.consumer);
    await deleteBusTopology({ url: amqpUrl, exchange, queuePrefix, consumers }).catch(() => undefined);
    await receiver.close();
    await api.close();
    await db.close();
  });

  async function startWorker(): Promise<WorkerProcess> {
    const worker = await WorkerProcess.start({
      DATABASE_URL: db.url,
      AMQP_URL: amqpUrl,
      AMQP_EXCHANGE: exchange,
      AMQP_QUEUE_PREFIX: queuePrefix,
      ALLOW_PRIVATE_TARGETS: '1',
    });
    workers.push(worker);
    return worker;
  }

  const runState = async (runId: string) =>
    (await db.dataSource.query(`SELECT status, lease_owner, state FROM automation_runs WHERE id = $1`, [runId]))[0] as {
      status: string;
      lease_owner: string | null;
      state: { steps: { name: string; status: string }[] };
    };

  it('a worker killed mid-step: the lease lapses, one of two racing sweepers finishes the run once', async () => {
    const user = await api.createUser();
    const assistant = await createAssistant(api, user);
    const applied = await api.http
      .post('/api/user/automate/templates/post_call_webhook_forward')
      .set(user.auth)
      .send({ assistant_id: assistant, params: { url: receiver.url('/killed') }, test: false });
    expect(applied.status).toBe(201);
    const automation = (await api.runtime.container
      .get(TOKENS.AutomationRepository)
      .findById(applied.body.automation_id)) as Automation;
    const engine = api.runtime.container.get(TOKENS.AutomationEngine);
    const version = (await engine.version(automation.liveVersionId as string))!;
    // The receiver holds the first request long enough for the worker to die while it waits.
    receiver.respondWith((_req, seenBefore) =>
      seenBefore === 0 ? { status: 200, body: '{}', delayMs: 8_000 } : { status: 200, body: '{}' },
    );

    const worker = await startWorker();
    const queued = await engine.launch(automation, version, {
      trigger: 'assistant_event',
      isTest: false,
      input: { event: 'call.ended', assistant_id: assistant, call: { id: 1, status: 'completed' } },
    });
    await eventually(
      async () => receiver.received.some((r) => r.path === '/killed'),
      'the worker to send the step',
      20_000,
    );
    const held = await runState(queued.id);
    expect(held.status).toBe('RUNNING');
    expect(held.lease_owner).toMatch(/^wkr_/);
    await worker.kill();

    // Past the dead worker's lease (60 s), two instances sweep at once.
    const clock = new ManualClock(new Date(Date.now() + 61_000));
    const runs = api.runtime.container.get(TOKENS.AutomationRunRepository);
    const taken = await Promise.all(
      [0, 1].map(() => new AutomationRunSweeper(runs, engineFor(api, clock), clock, silent).sweep()),
    );
    expect(taken.sort()).toEqual([0, 1]);

    const done = await runState(queued.id);
    expect(done.status).toBe('SUCCEEDED');
    expect(done.lease_owner).toBeNull();
    expect(done.state.steps.map((s) => s.status)).toEqual(['SUCCEEDED', 'SUCCEEDED']);
    const sent = receiver.received.filter((r) => r.path === '/killed');
    expect(sent).toHaveLength(2);
    expect(new Set(sent.map((r) => r.webhookId))).toEqual(new Set([stepWebhookId(queued.id, 'forward_webhook')]));
  }, 60_000);

  it('an async hook run accepted (202) is stored for workers: one started afterwards executes it, the accepting api never does', async () => {
    const user = await api.createUser();
    const assistant = await createAssistant(api, user);
    const applied = await api.http
      .post('/api/user/automate/templates/lead_intake_call')
      .set(user.auth)
      .send({ assistant_id: assistant, params: { test_phone_number: '+14155551234' }, test: false });
    const hook = new URL(applied.body.webhook_url).pathname;
    const accepted = await api.http.post(hook).send({ phone: '+14155550123', name: 'Ann' });
    expect([accepted.status, accepted.body.accepted]).toEqual([202, true]);
    // Nothing of this api process runs it: its background work never started, and it answers no more.
    expect((await runState(accepted.body.run_id)).status).toBe('RUNNING');

    await startWorker();
    await eventually(
      async () => (await runState(accepted.body.run_id)).status === 'SUCCEEDED',
      'a worker to execute the accepted run',
      30_000,
    );
    const [call] = await db.dataSource.query(`SELECT customer_phone, automation_run_id FROM calls WHERE user_id = $1`, [
      user.id,
    ]);
    expect(call).toEqual({ customer_phone: '+14155550123', automation_run_id: accepted.body.run_id });
  }, 60_000);
});

/** An engine as another api or worker instance has it: its own lease owner and clock, the same database. */
function engineFor(api: TestApi, clock: ManualClock) {
  const get = <T>(token: Token<T>): T => api.runtime.container.get(token);
  const steps = new AutomationSteps({
    http: get(TOKENS.OutboundHttpClient),
    gateway: get(TOKENS.ToolGateway),
    tables: get(TOKENS.DataTableRepository),
    connections: get(TOKENS.ConnectionRepository),
    cipher: api.runtime.container.get(SecretCipher),
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
  );
}
