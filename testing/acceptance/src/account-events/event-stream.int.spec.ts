import {
  createTestApi,
  eventually,
  listenOnLoopback,
  openEventStream,
  OpenEventStream,
  TestApi,
  TestUser,
} from '@voiceplane/test-env';
import { createAssistant } from '@voiceplane/stand-ins/calls/fixtures';

/**
 * GET /api/user/events/stream through the composed app on a real socket: an account's own events
 * and nothing else, resume by Last-Event-ID, heartbeats, the per-account limit, and the stream let
 * go when the api drains.
 */

const CUSTOMER = '+14155559876';
let t: TestApi;
let server: { baseUrl: string; close(): Promise<void> };
const open: OpenEventStream[] = [];
let counter = 0;

beforeAll(async () => {
  t = await createTestApi({ config: { eventStreams: { perAccount: 2, heartbeatMs: 150 } } });
  server = await listenOnLoopback(t.runtime.app);
});
afterAll(async () => {
  for (const stream of open) stream.close();
  await server.close();
  await t.close();
});

const phone = () => `+49153${String(process.pid % 10_000).padStart(4, '0')}${String(++counter).padStart(4, '0')}`;

async function stream(user: TestUser, headers: Record<string, string> = {}): Promise<OpenEventStream> {
  const s = await openEventStream(`${server.baseUrl}/api/user/events/stream`, { ...user.auth, ...headers });
  open.push(s);
  return s;
}

/** A sender answered by an active assistant, so a customer's message brings an AI reply too. */
async function answeringSender(user: TestUser): Promise<number> {
  const assistant = await createAssistant(t, user);
  await t.http.post(`/api/user/assistant/${assistant}/activate`).set(user.auth).expect(200);
  const res = await t.http
    .post('/api/user/chatapp/senders')
    .set(user.auth)
    .send({ phone_number: phone(), display_name: 'Acme', assistant_id: assistant });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

async function customerWrites(user: TestUser, senderId: number, text: string): Promise<string> {
  const res = await t.http
    .post('/api/sandbox/chatapp/inbound-message')
    .set(user.auth)
    .send({ sender_id: senderId, from_phone: CUSTOMER, text });
  expect(res.status).toBe(200);
  return res.body.conversation_uuid;
}

const parsed = (s: OpenEventStream) =>
  s.events.filter((e) => e.event !== 'ready').map((e) => ({ id: e.id, event: e.event, ...JSON.parse(e.data) }));

describe('the account event stream', () => {
  it('answers 401 without a token, like every user route', async () => {
    const res = await fetch(`${server.baseUrl}/api/user/events/stream`);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: 'Unauthorized' });
  });

  it("streams the account's messages and AI replies, and no event of another account ever", async () => {
    const alice = await t.createUser();
    const bob = await t.createUser();
    const [aliceSender, bobSender] = [await answeringSender(alice), await answeringSender(bob)];
    const watching = await stream(alice);
    expect(watching.status).toBe(200);
    expect(watching.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(watching.headers.get('cache-control')).toBe('no-store');
    await eventually(() => watching.events.some((e) => e.event === 'ready'), 'the ready event');
    expect(JSON.parse(watching.events[0].data)).toEqual({ resumed: true });

    const bobConversation = await customerWrites(bob, bobSender, 'bob secret');
    const aliceConversation = await customerWrites(alice, aliceSender, '<img src=x onerror=alert(1)>\nline two');
    await eventually(() => parsed(watching).some((e) => e.type === 'message.ai_reply'), "alice's AI reply");
    // Bob's events went through the same bus meanwhile; a later one of Alice's shows they had their chance.
    await customerWrites(bob, bobSender, 'bob again');
    await customerWrites(alice, aliceSender, 'last');
    await eventually(() => parsed(watching).some((e) => e.data.body === 'last'), "alice's last message");

    const events = parsed(watching);
    expect(events.every((e) => e.data.conversation_id === aliceConversation)).toBe(true);
    expect(JSON.stringify(events)).not.toContain(bobConversation);
    expect(JSON.stringify(events)).not.toContain('bob');
    expect(events[0]).toEqual({
      id: expect.stringMatching(/^\S+$/),
      event: 'message.received',
      type: 'message.received',
      occurred_at: expect.any(String),
      data: expect.objectContaining({
        conversation_id: aliceConversation,
        direction: 'inbound',
        source: 'customer',
        body: '<img src=x onerror=alert(1)>\nline two',
      }),
    });
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['message.received', 'message.ai_reply']));
    // The customer's line break stays inside the JSON: it cannot start a field of the stream.
    expect(watching.text()).not.toMatch(/^line two/m);
  });

  it("streams a call's start and end", async () => {
    const user = await t.createUser({ balance: 10 });
    const assistant = await createAssistant(t, user);
    const watching = await stream(user);
    const placed = await t.http
      .post('/api/user/make_call')
      .set(user.auth)
      .send({ assistant_id: assistant, phone_number: CUSTOMER })
      .expect(200);
    const id = placed.body.call_id;
    await t.http
      .post(`/api/runtime/calls/${id}/events`)
      .set(t.runtimeAuth)
      .send({ event_id: 'a', type: 'answered' })
      .expect(200);
    await t.http
      .post(`/api/runtime/calls/${id}/events`)
      .set(t.runtimeAuth)
      .send({ event_id: 'e', type: 'ended', data: { status: 'completed', duration: 12 } })
      .expect(200);
    await eventually(() => parsed(watching).some((e) => e.type === 'call.ended'), "the call's end");
    expect(parsed(watching).map((e) => [e.type, e.data.call_id])).toEqual([
      ['call.started', id],
      ['call.ended', id],
    ]);
    expect(parsed(watching)[1].data).toEqual(
      expect.objectContaining({ assistant_id: assistant, status: 'completed', answered: true, duration: 12 }),
    );
    watching.close();
  });

  it('resumes after Last-Event-ID, and says so when the id is no longer held', async () => {
    const user = await t.createUser();
    const senderId = await answeringSender(user);
    const first = await stream(user);
    await customerWrites(user, senderId, 'one');
    await eventually(() => parsed(first).some((e) => e.type === 'message.ai_reply'), 'the first reply');
    const lastSeen = first.events[first.events.length - 1].id!;
    first.close();
    await customerWrites(user, senderId, 'two');
    await eventually(
      async () => (await t.http.get('/api/user/conversations').set(user.auth)).body.data?.[0]?.message_count === 4,
      'the second reply stored',
    );

    const resumed = await stream(user, { 'Last-Event-ID': lastSeen });
    await eventually(() => parsed(resumed).some((e) => e.type === 'message.ai_reply'), 'the missed reply');
    expect(JSON.parse(resumed.events[0].data)).toEqual({ resumed: true });
    expect(parsed(resumed).map((e) => [e.type, e.data.body ?? null])).toEqual([
      ['message.received', 'two'],
      ['message.ai_reply', expect.any(String)],
    ]);
    resumed.close();

    const unknown = await stream(user, { 'Last-Event-ID': 'evt_gone' });
    await eventually(() => unknown.events.length > 0, 'the ready event');
    expect(unknown.events[0]).toEqual({ id: null, event: 'ready', data: JSON.stringify({ resumed: false }) });
    expect(parsed(unknown)).toEqual([]);
    unknown.close();
  });

  it('sends heartbeats on an idle stream', async () => {
    const user = await t.createUser();
    const idle = await stream(user);
    await eventually(() => idle.comments.filter((c) => c === 'heartbeat').length >= 2, 'two heartbeats');
    expect(idle.text().startsWith('retry: ')).toBe(true);
    idle.close();
  });

  it('refuses a stream past the per-account limit with a 429, and frees the place when a stream closes', async () => {
    const user = await t.createUser();
    const [a, b] = [await stream(user), await stream(user)];
    await eventually(() => a.events.length > 0 && b.events.length > 0, 'both streams open');
    const third = await fetch(`${server.baseUrl}/api/user/events/stream`, { headers: user.auth });
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toBe('30');
    expect(await third.json()).toEqual({ message: 'Too many open event streams.', retry_after: 30 });
    a.close();
    const streams = t.runtime.container.get((await import('@voiceplane/application')).TOKENS.AccountEventStreams);
    await eventually(() => streams.openStreams(user.id) === 1, 'the closed stream let go');
    const again = await stream(user);
    expect(again.status).toBe(200);
    again.close();
    b.close();
  });

  it('ends every stream when the api starts draining', async () => {
    const user = await t.createUser();
    const s = await stream(user);
    await eventually(() => s.events.length > 0, 'the ready event');
    const streams = t.runtime.container.get((await import('@voiceplane/application')).TOKENS.AccountEventStreams);
    await streams.endAll();
    await eventually(() => s.ended(), 'the stream ended by the server');
    expect(streams.openStreams(user.id)).toBe(0);
  });
});
