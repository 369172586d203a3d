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
import { createAssistant } from '@voiceplane/stand-ins/calls/fixtures';

/**
 * Two api instances on one database and one RabbitMQ broker: a visitor's widget stream is held by
 * one, the chat is written through the other (the visitor's message, the sandbox model's streamed
 * reply, a human's answer), as behind a load balancer.
 */
const run = randomBytes(4).toString('hex');
const exchange = `vp-test-${run}.events`;
const queuePrefix = `vp-test-${run}`;
const PAGE = 'http://127.0.0.1:8125';

describeWithAmqp('the widget stream across api instances', () => {
  let db: TestDatabase;
  let writer: TestApi;
  let holder: TestApi;
  let server: { baseUrl: string; close(): Promise<void> };

  beforeAll(async () => {
    db = await createTestDatabase();
    const bus = () => new RabbitMqMessageBus({ url: amqpUrl, exchange, queuePrefix });
    // One instance runs the background work (the outbox relay among it); the other only serves.
    writer = await createTestApi({ db, bus: bus() });
    holder = await createTestApi({ db, bus: bus(), startBackground: false });
    server = await listenOnLoopback(holder.runtime.app);
  });
  afterAll(async () => {
    const consumers = writer.runtime.container.getAll(TOKENS.EventConsumer).map((c) => c.options.consumer);
    await server.close();
    await holder.close();
    await writer.close();
    await db.close();
    await deleteBusTopology({ url: amqpUrl, exchange, queuePrefix, consumers });
  });

  it('a reply written on one instance grows, then lands, on a stream held by the other; so does a human answer', async () => {
    const owner = await writer.createUser({ balance: 10 });
    const assistant = await createAssistant(writer, owner, { initial_message: 'Hello!' });
    const widget = await writer.http
      .put(`/api/user/assistant/${assistant}/widget`)
      .set(owner.auth)
      .send({ enabled: true, allowed_origins: [PAGE] });
    const key = widget.body.data.widget_key;
    const chat = (await writer.http.post(`/api/widget/${key}/conversations`).set('Origin', PAGE).send({})).body;
    const stream = await openEventStream(
      `${server.baseUrl}/api/widget/${key}/conversations/${chat.conversation_id}/events?token=${chat.visitor_token}`,
      { Origin: PAGE },
    );
    const stored = () => stream.events.filter((e) => e.event === 'message').map((e) => JSON.parse(e.data));
    await eventually(() => stored().length === 1, 'the greeting');

    const sent = await writer.http
      .post(`/api/widget/${key}/conversations/${chat.conversation_id}/messages`)
      .set('Origin', PAGE)
      .set('X-Visitor-Token', chat.visitor_token)
      .send({ message: 'Hi there' });
    expect(sent.status).toBe(200);
    await eventually(() => stored().length === 3, "the reply, stored, on the other instance's stream");
    const deltas = stream.events.filter((e) => e.event === 'message.delta').map((e) => JSON.parse(e.data).delta);
    expect(deltas.length).toBeGreaterThanOrEqual(2);
    expect(deltas.join('')).toBe(sent.body.message);
    expect(stored().map((m) => [m.role, m.content])).toEqual([
      ['assistant', 'Hello!'],
      ['user', 'Hi there'],
      ['assistant', sent.body.message],
    ]);

    await writer.http
      .post(`/api/user/conversations/${chat.conversation_id}/messages`)
      .set(owner.auth)
      .send({ message: 'A human from the other instance.' })
      .expect(200);
    await eventually(
      () => stored().some((m) => m.content === 'A human from the other instance.'),
      "the human's answer on the other instance's stream",
    );
    stream.close();
  });
});
