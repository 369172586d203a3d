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
 * Two api instances on one database and one RabbitMQ broker: a customer's message handled by one
 * reaches an account's stream held by the other, as behind a load balancer.
 */
const run = randomBytes(4).toString('hex');
const exchange = `vp-test-${run}.events`;
const queuePrefix = `vp-test-${run}`;

describeWithAmqp('the account event stream across api instances', () => {
  let db: TestDatabase;
  let worker: TestApi;
  let other: TestApi;
  let server: { baseUrl: string; close(): Promise<void> };

  beforeAll(async () => {
    db = await createTestDatabase();
    const bus = () => new RabbitMqMessageBus({ url: amqpUrl, exchange, queuePrefix });
    // One instance runs the background work (outbox relay, consumers); the other only serves.
    worker = await createTestApi({ db, bus: bus() });
    other = await createTestApi({ db, bus: bus(), startBackground: false });
    server = await listenOnLoopback(other.runtime.app);
  });
  afterAll(async () => {
    const consumers = worker.runtime.container.getAll(TOKENS.EventConsumer).map((c) => c.options.consumer);
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
});
