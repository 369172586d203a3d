import {
  createTestApi,
  eventually,
  listenOnLoopback,
  openEventStream,
  OpenEventStream,
  TestApi,
  TestUser,
} from '@voiceplane/test-env';
import { RecordingStub, StubAnswer } from '@voiceplane/stand-ins/stubs/recording-stub';
import { createAssistant } from '@voiceplane/stand-ins/calls/fixtures';

/**
 * The widget's live stream on a real socket, fed by the bus (the outbox relay runs): a reply
 * arrives piece by piece (`message.delta`) and then as the stored message, a human's message
 * arrives live, a reconnect with `Last-Event-ID` gets exactly what it missed, a reply a human
 * overtakes is withdrawn, and a chat holds a bounded number of streams.
 */

const PAGE = 'http://127.0.0.1:8124';
let t: TestApi;
let model: RecordingStub;
let server: { baseUrl: string; close(): Promise<void> };
let owner: TestUser;
const open: OpenEventStream[] = [];

const chunk = (content: string, finish: string | null = null) => ({
  object: 'chat.completion.chunk',
  choices: [{ index: 0, delta: { content }, finish_reason: finish }],
});
/** A streamed answer: `words` one chunk each, `gapMs` apart. */
const streams = (words: string[], gapMs = 40): StubAnswer => ({
  status: 200,
  gapMs,
  events: [...words.map((w) => chunk(w)), chunk('', 'stop'), '[DONE]'],
});

beforeAll(async () => {
  model = await RecordingStub.start({ status: 500, body: { error: { message: 'nothing scripted' } } });
  t = await createTestApi({
    env: { REPLY_GENERATOR: 'openai', OPENAI_API_KEY: 'sk-test-widget', OPENAI_BASE_URL: `${model.baseUrl}v1` },
    config: { eventStreams: { perAccount: 5, heartbeatMs: 150 } },
  });
  server = await listenOnLoopback(t.runtime.app);
  owner = await t.createUser({ balance: 10 });
});
afterAll(async () => {
  for (const s of open) s.close();
  await server.close();
  await t.close();
  await model.close();
});
beforeEach(() => model.reset());

async function chatOf(): Promise<{ key: string; uuid: string; token: string }> {
  const assistant = await createAssistant(t, owner, { initial_message: 'Hi, how can I help?' });
  const widget = await t.http
    .put(`/api/user/assistant/${assistant}/widget`)
    .set(owner.auth)
    .send({ enabled: true, allowed_origins: [PAGE] });
  const key = widget.body.data.widget_key;
  const started = await t.http.post(`/api/widget/${key}/conversations`).set('Origin', PAGE).send({});
  expect(started.status).toBe(200);
  return { key, uuid: started.body.conversation_id, token: started.body.visitor_token };
}
async function listen(chat: { key: string; uuid: string; token: string }, headers: Record<string, string> = {}) {
  const url = `${server.baseUrl}/api/widget/${chat.key}/conversations/${chat.uuid}/events?token=${chat.token}`;
  const stream = await openEventStream(url, { Origin: PAGE, ...headers });
  open.push(stream);
  return stream;
}
const send = (chat: { key: string; uuid: string; token: string }, message: string) =>
  t.http
    .post(`/api/widget/${chat.key}/conversations/${chat.uuid}/messages`)
    .set('Origin', PAGE)
    .set('X-Visitor-Token', chat.token)
    .send({ message });
const human = (uuid: string, message: string) =>
  t.http.post(`/api/user/conversations/${uuid}/messages`).set(owner.auth).send({ message }).expect(200);
const messages = (s: OpenEventStream) =>
  s.events.filter((e) => e.event === 'message').map((e) => ({ id: e.id, ...JSON.parse(e.data) }));

describe("the widget's live stream", () => {
  it('shows the reply growing as the model writes it, then the stored reply; the route still answers it whole', async () => {
    const chat = await chatOf();
    const stream = await listen(chat);
    expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    await eventually(() => messages(stream).length === 1, 'the greeting');
    model.answer(streams(['Your', ' order', ' ships', ' on', ' Friday.']));
    const sent = await send(chat, 'Where is my order?');
    expect(sent.body).toEqual({ status: true, message: 'Your order ships on Friday.' });
    await eventually(() => messages(stream).length === 3, 'the stored reply');
    const order = stream.events.map((e) => e.event);
    const deltas = stream.events.filter((e) => e.event === 'message.delta').map((e) => JSON.parse(e.data));
    expect(deltas.length).toBeGreaterThanOrEqual(2);
    expect(deltas.map((d) => d.delta).join('')).toBe('Your order ships on Friday.');
    expect(new Set(deltas.map((d) => d.draft)).size).toBe(1);
    // The pieces carry no id: a reconnect resumes after stored messages only.
    expect(stream.events.filter((e) => e.event === 'message.delta').every((e) => e.id === null)).toBe(true);
    expect(order.indexOf('message.delta')).toBeGreaterThan(order.indexOf('message'));
    expect(order.lastIndexOf('message.delta')).toBeLessThan(order.lastIndexOf('message'));
    expect(messages(stream).map((m) => [m.role, m.content])).toEqual([
      ['assistant', 'Hi, how can I help?'],
      ['user', 'Where is my order?'],
      ['assistant', 'Your order ships on Friday.'],
    ]);
    expect(JSON.parse(model.requests[0].body).stream).toBe(true);
  });

  it("brings a human's message live, and a reconnect with Last-Event-ID gets exactly what it missed", async () => {
    const chat = await chatOf();
    await t.http.post(`/api/automate/conversations/${chat.uuid}/disable-ai`).set(owner.auth).expect(200);
    const first = await listen(chat);
    await eventually(() => messages(first).length === 1, 'the greeting');
    await human(chat.uuid, 'Ann here, live.');
    await eventually(() => messages(first).some((m) => m.content === 'Ann here, live.'), "the human's message, live");
    const lastSeen = messages(first).at(-1)!.id as string;
    first.close();

    await send(chat, 'Are you still there?');
    await human(chat.uuid, 'Yes, still here.');
    const again = await listen(chat, { 'Last-Event-ID': lastSeen });
    await eventually(() => messages(again).length === 2, 'what the reconnect missed');
    await human(chat.uuid, 'And live again.');
    await eventually(() => messages(again).length === 3, 'the next message, live');
    expect(messages(again).map((m) => m.content)).toEqual([
      'Are you still there?',
      'Yes, still here.',
      'And live again.',
    ]);
    expect(new Set(messages(again).map((m) => m.id)).size).toBe(3);
    expect(model.requests).toHaveLength(0);
  });

  it('withdraws the draft of a reply a human overtook; the visitor is not charged for it', async () => {
    const chat = await chatOf();
    const stream = await listen(chat);
    await eventually(() => messages(stream).length === 1, 'the greeting');
    const balance = async () =>
      (await t.http.get('/api/user/billing/balance').set(owner.auth)).body.total_balance as number;
    const before = await balance();
    model.answer(streams(['I', ' will', ' check', ' that', ' for', ' you', ' now.'], 150));
    // `then` sends it now (a supertest request waits to be awaited), while the test goes on.
    const sending = send(chat, 'Can you check?').then((r) => r);
    await eventually(() => stream.events.some((e) => e.event === 'message.delta'), 'the first piece');
    await t.http.post(`/api/automate/conversations/${chat.uuid}/disable-ai`).set(owner.auth).expect(200);
    expect((await sending).body).toEqual({ status: true, message: null, ai_disabled: true });
    await eventually(() => stream.events.some((e) => e.event === 'message.discarded'), 'the draft withdrawn');
    const draft = JSON.parse(stream.events.find((e) => e.event === 'message.delta')!.data).draft;
    expect(JSON.parse(stream.events.find((e) => e.event === 'message.discarded')!.data)).toEqual({ draft });
    expect(messages(stream).map((m) => m.content)).toEqual(['Hi, how can I help?', 'Can you check?']);
    // Charged when sent, given back when the reply it paid for was not stored.
    expect(await balance()).toBeCloseTo(before, 6);
  });

  it('keeps three streams per chat: a fourth ends the oldest', async () => {
    const chat = await chatOf();
    const streamsOpen = [await listen(chat), await listen(chat), await listen(chat)];
    for (const s of streamsOpen) await eventually(() => messages(s).length === 1, 'the greeting');
    const fourth = await listen(chat);
    await eventually(() => streamsOpen[0].ended(), 'the oldest stream ended');
    await eventually(() => messages(fourth).length === 1, "the fourth stream's greeting");
    expect(streamsOpen[1].ended()).toBe(false);
  });

  it('refuses a wrong visitor token as the one event of the stream', async () => {
    const chat = await chatOf();
    const stream = await listen({ ...chat, token: 'wvt_not-the-token' });
    await eventually(() => stream.ended(), 'the stream ended');
    expect(stream.events.map((e) => [e.event, JSON.parse(e.data)])).toEqual([
      ['refused', { status: false, error: 'Conversation not found', http_status: 404 }],
    ]);
  });
});
