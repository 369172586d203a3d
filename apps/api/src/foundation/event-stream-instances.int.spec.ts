import { randomBytes } from 'node:crypto';
import { TOKENS } from '@voiceplane/application';
import { deleteBusTopology, RabbitMqMessageBus } from '@voiceplane/adapter-rabbitmq';
import {
  amqpUrl,
  createTestApi,
  createTestDatabase,
  describeWithAmqp,
  eventually,
  listenOnLoopback,
  openEventStream,
  TestApi,
  TestDatabase,
} from '@voiceplane/test-env';

/**
 * Two api instances on one database and one RabbitMQ broker, as behind a load balancer: a
 * customer's message handled by one reaches an account's stream held by the other; the
 * per-account limit counts the streams of both; a reader resumes on an instance that started after
 * what it missed; a dead instance's places come back when its leases lapse.
 */
const run = randomBytes(4).toString('hex');
const exchange = `vp-test-${run}.events`;
const queuePrefix = `vp-test-${run}`;

describeWithAmqp('the account event stream across api instances', () => {
  let db: TestDatabase;
  let worker: TestApi;
  let other: TestApi;
  let server: { baseUrl: string; close(): Promise<void> };
  let workerServer: { baseUrl: string; close(): Promise<void> };
  const bus = () => new RabbitMqMessageBus({ url: amqpUrl, exchange, queuePrefix });
  // Renewals every 200 ms, so a lapsed lease is noticed within the test.
  const config = { eventStreams: { perAccount: 5, heartbeatMs: 200 } };

  beforeAll(async () => {
    db = await createTestDatabase();
    // One instance runs the background work (outbox relay, consumers); the other only serves.
    worker = await createTestApi({ db, bus: bus(), config });
    other = await createTestApi({ db, bus: bus(), startBackground: false, config });
    server = await listenOnLoopback(other.runtime.app);
    workerServer = await listenOnLoopback(worker.runtime.app);
  });
  afterAll(async () => {
    const consumers = worker.runtime.container.getAll(TOKENS.EventConsumer).map((c) => c.options.consumer);
    await workerServer.close();
    await server.close();
    await other.close();
    await worker.close();
    await db.close();
    await deleteBusTopology({ url: amqpUrl, exchange, queuePrefix, consumers });
  });

  it('serves on one instance what happened on the other', async () => {
    const user = await worker.createUser();
    const sender = await worker.http
      .post('/api/user/chatapp/senders')
      .set(user.auth)
      .send({ phone_number: '+4915211112222', display_name: 'Acme' });
    expect(sender.status).toBe(201);
    const stream = await openEventStream(`${server.baseUrl}/api/user/events/stream`, user.auth);
    await eventually(() => stream.events.length > 0, 'the ready event');
    await worker.http
      .post('/api/sandbox/chatapp/inbound-message')
      .set(user.auth)
      .send({ sender_id: sender.body.data.id, from_phone: '+14155550199', text: 'Hello from the other side' })
      .expect(200);
    await eventually(
      () => stream.events.some((e) => e.event === 'message.received'),
      "the message on the other instance's stream",
    );
    expect(JSON.parse(stream.events.find((e) => e.event === 'message.received')!.data).data.body).toBe(
      'Hello from the other side',
    );
    stream.close();
  });
  const open = (base: string, auth: Record<string, string>, headers: Record<string, string> = {}) =>
    openEventStream(`${base}/api/user/events/stream`, { ...auth, ...headers });
  const openMany = async (base: string, auth: Record<string, string>, n: number) => {
    const streams = [];
    for (let i = 0; i < n; i++) streams.push(await open(base, auth));
    for (const s of streams) expect(s.status).toBe(200);
    return streams;
  };
  const refused = async (base: string, auth: Record<string, string>) => {
    const res = await fetch(`${base}/api/user/events/stream`, { headers: auth });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('30');
    expect(await res.json()).toEqual({ message: 'Too many open event streams.', retry_after: 30 });
  };
  const streamsOf = (api: TestApi) => api.runtime.container.get(TOKENS.AccountEventStreams);

  it('counts the streams of both instances against one limit, and each account apart', async () => {
    const user = await worker.createUser();
    const neighbour = await worker.createUser();
    const held = [
      ...(await openMany(workerServer.baseUrl, user.auth, 3)),
      ...(await openMany(server.baseUrl, user.auth, 2)),
    ];
    await refused(server.baseUrl, user.auth);
    await refused(workerServer.baseUrl, user.auth);
    // Another account's places are its own.
    const theirs = await openMany(server.baseUrl, neighbour.auth, 5);
    await refused(workerServer.baseUrl, neighbour.auth);

    held[0].close();
    await eventually(() => streamsOf(worker).openStreams(user.id) === 2, 'the closed stream let go');
    const sixth = await open(server.baseUrl, user.auth);
    expect(sixth.status).toBe(200);
    for (const s of [...held, ...theirs, sixth]) s.close();
  });

  it("gives a dead instance's places back once its leases lapse", async () => {
    const user = await worker.createUser();
    const onWorker = await openMany(workerServer.baseUrl, user.auth, 5);
    await refused(server.baseUrl, user.auth);
    // The worker stops renewing, as a dead instance would: its leases run out.
    await db.dataSource.query(
      `UPDATE event_stream_leases SET expires_at = now() - interval '1 second' WHERE user_id = $1 AND instance = $2`,
      [user.id, streamsOf(worker).instance],
    );
    const onOther = await openMany(server.baseUrl, user.auth, 5);
    await refused(server.baseUrl, user.auth);
    // The worker was only stalled: at its next renewal it finds its leases gone and ends those streams.
    await eventually(() => onWorker.every((s) => s.ended()), 'the lapsed streams ended by the worker');
    expect(streamsOf(worker).openStreams(user.id)).toBe(0);
    for (const s of onOther) s.close();
  });

  it("resumes on an instance started after what the reader missed, and never with another account's id", async () => {
    const user = await worker.createUser();
    const neighbour = await worker.createUser();
    const sender = await worker.http
      .post('/api/user/chatapp/senders')
      .set(user.auth)
      .send({ phone_number: '+4915211113333', display_name: 'Acme' });
    expect(sender.status).toBe(201);
    const inbound = (text: string) =>
      worker.http
        .post('/api/sandbox/chatapp/inbound-message')
        .set(user.auth)
        .send({ sender_id: sender.body.data.id, from_phone: '+14155550198', text })
        .expect(200);
    const first = await open(server.baseUrl, user.auth);
    await inbound('before the drop');
    await eventually(() => first.events.some((e) => e.event === 'message.received'), 'the first message');
    const lastSeen = first.events.find((e) => e.event === 'message.received')!.id!;
    first.close();
    await inbound('while away');
    await inbound('still away');
    await eventually(
      async () =>
        Number(
          (await db.dataSource.query(`SELECT count(*) AS n FROM account_events WHERE user_id = $1`, [user.id]))[0].n,
        ) === 3,
      'the missed messages stored',
    );

    const late = await createTestApi({ db, bus: bus(), startBackground: false, config });
    const lateServer = await listenOnLoopback(late.runtime.app);
    try {
      const resumed = await open(lateServer.baseUrl, user.auth, { 'Last-Event-ID': lastSeen });
      await eventually(() => resumed.events.length >= 3, 'the missed messages');
      expect(JSON.parse(resumed.events[0].data)).toEqual({ resumed: true });
      expect(resumed.events.slice(1).map((e) => [e.event, JSON.parse(e.data).data.body])).toEqual([
        ['message.received', 'while away'],
        ['message.received', 'still away'],
      ]);
      resumed.close();

      // Another account naming this account's event is told nothing is held, and is sent nothing.
      const prying = await open(lateServer.baseUrl, neighbour.auth, { 'Last-Event-ID': lastSeen });
      await eventually(() => prying.events.length > 0, 'the ready event');
      await new Promise((r) => setTimeout(r, 300));
      expect(prying.events).toEqual([{ id: null, event: 'ready', data: JSON.stringify({ resumed: false }) }]);
      prying.close();
    } finally {
      await lateServer.close();
      await late.close();
    }
  });
});
