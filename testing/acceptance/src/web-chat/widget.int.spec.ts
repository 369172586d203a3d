import { gzipSync } from 'node:zlib';
import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';
import { RecordingStub, StubAnswer } from '@voiceplane/stand-ins/stubs/recording-stub';
import { createAssistant } from '@voiceplane/stand-ins/calls/fixtures';

/** The widget's public routes through the composed app: origins, keys, visitor tokens, quotas and the daily cap. */

const PAGE = 'http://127.0.0.1:8123';
let t: TestApi;
let model: RecordingStub;
let owner: TestUser;

const says = (content: string): StubAnswer => ({
  status: 200,
  body: {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  },
});

async function widgetOf(
  user: TestUser,
  settings: Record<string, unknown> = {},
): Promise<{ assistant: number; key: string }> {
  const assistant = await createAssistant(t, user, { initial_message: 'Hi, how can I help?' });
  const res = await t.http
    .put(`/api/user/assistant/${assistant}/widget`)
    .set(user.auth)
    .send({ enabled: true, allowed_origins: [`${PAGE}/`], ...settings });
  expect(res.status).toBe(200);
  return { assistant, key: res.body.data.widget_key };
}
const start = (key: string, origin = PAGE) =>
  t.http.post(`/api/widget/${key}/conversations`).set('Origin', origin).send({});
const send = (key: string, chat: { conversation_id: string; visitor_token: string }, message: string, origin = PAGE) =>
  t.http
    .post(`/api/widget/${key}/conversations/${chat.conversation_id}/messages`)
    .set('Origin', origin)
    .set('X-Visitor-Token', chat.visitor_token)
    .send({ message });
const history = (key: string, uuid: string, token: string) =>
  t.http.get(`/api/widget/${key}/conversations/${uuid}`).set('Origin', PAGE).set('X-Visitor-Token', token);

beforeAll(async () => {
  model = await RecordingStub.start({ status: 500, body: { error: { message: 'nothing scripted' } } });
  model.respondWith(() => says('Happy to help.'));
  t = await createTestApi({
    startBackground: false,
    env: { REPLY_GENERATOR: 'openai', OPENAI_API_KEY: 'sk-test-widget', OPENAI_BASE_URL: `${model.baseUrl}v1` },
  });
  owner = await t.createUser({ balance: 10 });
});
afterAll(async () => {
  await t.close();
  await model.close();
});

describe('the widget script', () => {
  it('is served as JavaScript any site may load, at most 30 KB gzipped', async () => {
    const res = await t.http.get('/widget.js');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(gzipSync(res.text).length).toBeLessThanOrEqual(30 * 1024);
    expect(res.text).not.toMatch(/innerHTML|insertAdjacentHTML|document\.write|eval\(/);
  });
});

describe('owner settings', () => {
  it("start off with a key, take origins and a cap, and rotate the key; another account's assistant is not found", async () => {
    const assistant = await createAssistant(t, owner, {});
    const first = await t.http.get(`/api/user/assistant/${assistant}/widget`).set(owner.auth);
    expect(first.body).toEqual({
      data: {
        assistant_id: assistant,
        widget_key: expect.stringMatching(/^wgt_[A-Za-z0-9]{24}$/),
        enabled: false,
        allowed_origins: [],
        daily_cap: 5,
      },
    });
    const set = await t.http
      .put(`/api/user/assistant/${assistant}/widget`)
      .set(owner.auth)
      .send({
        enabled: true,
        allowed_origins: ['HTTPS://Shop.Example.com:443', 'http://127.0.0.1:8123'],
        daily_cap: 1.5,
      });
    expect(set.body.data).toEqual(
      expect.objectContaining({
        enabled: true,
        allowed_origins: ['https://shop.example.com', 'http://127.0.0.1:8123'],
        daily_cap: 1.5,
      }),
    );
    const bad = await t.http
      .put(`/api/user/assistant/${assistant}/widget`)
      .set(owner.auth)
      .send({ allowed_origins: ['javascript:alert(1)'] });
    expect([bad.status, Object.keys(bad.body.errors)]).toEqual([422, ['allowed_origins.0']]);
    const rotated = await t.http.post(`/api/user/assistant/${assistant}/widget/rotate-key`).set(owner.auth);
    expect(rotated.body.data.widget_key).not.toBe(first.body.data.widget_key);
    expect((await start(first.body.data.widget_key, 'http://127.0.0.1:8123')).status).toBe(404);
    expect((await start(rotated.body.data.widget_key, 'http://127.0.0.1:8123')).status).toBe(200);
    const stranger = await t.createUser();
    expect((await t.http.get(`/api/user/assistant/${assistant}/widget`).set(stranger.auth)).body).toEqual({
      message: 'Assistant not found',
    });
  });
});

describe('a page talking to the widget', () => {
  it('starts a chat with the greeting and a visitor token, answers, and keeps the chat to that token', async () => {
    const { key } = await widgetOf(owner);
    const chat = (await start(key)).body;
    expect(chat).toEqual({
      status: true,
      conversation_id: expect.any(String),
      visitor_token: expect.stringMatching(/^wvt_/),
      history: [{ role: 'assistant', content: 'Hi, how can I help?' }],
    });
    const res = await send(key, chat, 'Hello');
    expect([res.status, res.body]).toEqual([200, { status: true, message: 'Happy to help.' }]);
    expect(
      (await history(key, chat.conversation_id, chat.visitor_token)).body.history.map(
        (h: { content: string }) => h.content,
      ),
    ).toEqual(['Hi, how can I help?', 'Hello', 'Happy to help.']);

    const other = (await start(key)).body;
    for (const [uuid, token] of [
      [chat.conversation_id, other.visitor_token],
      [chat.conversation_id, 'wvt_guessed'],
      [chat.conversation_id, ''],
      [other.conversation_id, chat.visitor_token],
    ]) {
      const read = await history(key, uuid, token);
      expect([read.status, read.body]).toEqual([404, { status: false, error: 'Conversation not found' }]);
      expect((await send(key, { conversation_id: uuid, visitor_token: token }, 'Hi')).status).toBe(404);
    }
    // The account's key is no visitor token, and the account's routes do not take a visitor token.
    expect((await history(key, chat.conversation_id, owner.token)).status).toBe(404);
    expect(
      (
        await t.http
          .get(`/api/conversations/${chat.conversation_id}`)
          .set('Authorization', `Bearer ${chat.visitor_token}`)
      ).status,
    ).toBe(401);
  });

  it('refuses other origins, a missing origin, a disabled widget and an unknown key', async () => {
    const { assistant, key } = await widgetOf(owner);
    for (const origin of ['http://127.0.0.1:9999', 'https://127.0.0.1:8123', 'null']) {
      expect([(await start(key, origin)).status, (await start(key, origin)).body]).toEqual([
        403,
        { status: false, error: 'This website may not use this chat widget.' },
      ]);
    }
    expect((await t.http.post(`/api/widget/${key}/conversations`).send({})).status).toBe(403);
    expect((await start('wgt_unknown')).body).toEqual({ status: false, error: 'Widget not found' });
    await t.http.put(`/api/user/assistant/${assistant}/widget`).set(owner.auth).send({ enabled: false }).expect(200);
    expect((await start(key)).status).toBe(404);
  });

  it('answers the preflight for any origin; the request itself is judged by the allowed origins', async () => {
    const { key } = await widgetOf(owner);
    const res = await t.http
      .options(`/api/widget/${key}/conversations`)
      .set('Origin', 'https://evil.example')
      .set('Access-Control-Request-Method', 'POST');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-headers']).toBe('Content-Type, X-Visitor-Token');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('stops a flooding visitor at its per-minute limit', async () => {
    const { key } = await widgetOf(owner);
    // Quotas count in fixed one-minute windows: a flood that straddles two proves nothing, so it is sent again in a new chat.
    let answers: Awaited<ReturnType<typeof send>>[] = [];
    for (let tries = 0; tries < 5; tries += 1) {
      const chat = (await start(key)).body;
      const minute = Math.floor(Date.now() / 60_000);
      answers = [];
      for (let i = 0; i < 12; i += 1) answers.push(await send(key, chat, `flood ${i}`));
      if (Math.floor(Date.now() / 60_000) === minute) break;
    }
    expect(answers.map((a) => a.status)).toEqual([...Array(10).fill(200), 429, 429]);
    expect(answers[10].body).toEqual({
      status: false,
      error: 'Too many messages. Please wait a moment.',
      retry_after: expect.any(Number),
    });
    expect(Number(answers[10].headers['retry-after'])).toBeGreaterThan(0);
  });

  it('stops billed replies at the daily cap across visitors and charges nothing past it', async () => {
    const user = await t.createUser({ balance: 10 });
    const { key } = await widgetOf(user, { daily_cap: 0.03 });
    const chats = [(await start(key)).body, (await start(key)).body];
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => send(key, chats[i % 2], `message ${i}`)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(3);
    expect(answers.filter((a) => a.status === 429).map((a) => a.body.error)).toEqual(
      Array(5).fill('The assistant has reached its limit for today. Please try again tomorrow.'),
    );
    const ledger = (await t.http.get('/api/user/billing/ledger?per_page=100').set(user.auth)).body.data.filter(
      (e: { type: string }) => e.type === 'charge',
    );
    expect(ledger).toHaveLength(3);
    expect((await t.http.get('/api/user/billing/balance').set(user.auth)).body.total_balance).toBeCloseTo(9.97, 4);
  });

  it("a human reply after disable-ai reaches the visitor's event stream", async () => {
    const { key } = await widgetOf(owner);
    const chat = (await start(key)).body;
    await t.http.post(`/api/automate/conversations/${chat.conversation_id}/disable-ai`).set(owner.auth).expect(200);
    expect((await send(key, chat, 'A human, please')).body).toEqual({ status: true, message: null, ai_disabled: true });
    await t.http
      .post(`/api/user/conversations/${chat.conversation_id}/messages`)
      .set(owner.auth)
      .send({ message: 'Ann here, how can I help?' })
      .expect(200);
    const stream = await new Promise<string>((resolve, reject) => {
      let text = '';
      const req = t.http
        .get(`/api/widget/${key}/conversations/${chat.conversation_id}/events?token=${chat.visitor_token}`)
        .set('Origin', PAGE)
        .buffer(false)
        .parse((res, done) => {
          res.on('data', (chunk: Buffer) => {
            text += chunk.toString();
            if (text.includes('Ann here')) {
              done(null, text);
              (res as unknown as { destroy: () => void }).destroy();
            }
          });
        });
      req.then(
        () => resolve(text),
        (e: Error) => (text.includes('Ann here') ? resolve(text) : reject(e)),
      );
    });
    const events = stream
      .split('\n\n')
      .filter((b) => b.includes('event: message'))
      .map((b) => JSON.parse(b.split('data: ')[1]));
    expect(events.map((e) => [e.role, e.content])).toEqual([
      ['assistant', 'Hi, how can I help?'],
      ['user', 'A human, please'],
      ['assistant', 'Ann here, how can I help?'],
    ]);
  });
});
