import { createTestApi, eventually, TestApi, TestUser } from '@voiceplane/test-env';
import { RecordingStub, StubAnswer } from '@voiceplane/stand-ins/stubs/recording-stub';
import { createAssistant, makeCall } from '@voiceplane/stand-ins/calls/fixtures';

/**
 * Sandbox text calls and chat replies answering from a document, through the composed app and a scripted
 * OpenAI-compatible server on 127.0.0.1: the document is processed by the workers first.
 */

let t: TestApi;
let model: RecordingStub;
let owner: TestUser;
let kb: number;
const docs: Record<string, number> = {};

const completion = (message: Record<string, unknown>): StubAnswer => ({
  status: 200,
  body: {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    choices: [{ index: 0, message: { role: 'assistant', content: null, ...message }, finish_reason: 'stop' }],
  },
});
const says = (content: string) => completion({ content });
const sent = (i: number) => JSON.parse(model.requests[i].body);
const REFUNDS = 'Refunds are paid within 14 days of the return.';
const HOURS = 'The shop opens at 9 on weekdays.';

beforeAll(async () => {
  model = await RecordingStub.start({ status: 500, body: { error: { message: 'nothing scripted' } } });
  t = await createTestApi({
    env: { REPLY_GENERATOR: 'openai', OPENAI_API_KEY: 'sk-test-kb', OPENAI_BASE_URL: `${model.baseUrl}v1` },
  });
  owner = await t.createUser();
  kb = (await t.http.post('/api/user/knowledgebases').set(owner.auth).send({ name: 'Shop' })).body.data.id;
  for (const [name, content] of [
    ['Refunds', REFUNDS],
    ['Hours', HOURS],
  ]) {
    const doc = (
      await t.http
        .post(`/api/user/knowledgebases/${kb}/documents`)
        .set(owner.auth)
        .send({ name, type: 'text', content })
    ).body.data.id;
    docs[name] = doc;
    await eventually(
      async () =>
        (await t.http.get(`/api/user/knowledgebases/${kb}/documents/${doc}`).set(owner.auth)).body.data.status ===
        'ready',
      `document ${name} ready`,
    );
  }
});
afterAll(async () => {
  await t.close();
  await model.close();
});
beforeEach(() => model.reset());

const say = (callId: number, text: string) =>
  t.http.post(`/api/sandbox/calls/${callId}/say`).set(owner.auth).send({ text });

describe('sandbox text call: the assistant answers from its knowledge base', () => {
  it("prompt mode: the passage for the customer's line is in the instructions, and the call shows the search", async () => {
    const assistant = await createAssistant(t, owner, { knowledgebase_id: kb, knowledgebase_mode: 'prompt' });
    const id = await makeCall(t, owner, assistant);
    model.answer(says('Refunds take up to 14 days.'));
    const res = await say(id, 'How long until I get my refund?');
    expect(res.body).toMatchObject({
      ok: true,
      reply: 'Refunds take up to 14 days.',
      tool_calls: [{ name: 'search_knowledge_base', ok: true, status_code: null }],
    });
    const system = sent(0).messages[0].content as string;
    expect(system).toContain(`[1] (Refunds) ${REFUNDS}`);
    expect(system).not.toContain(HOURS);
    expect(sent(0).tools ?? []).toEqual([]);
    const detail = (await t.http.get(`/api/user/calls/${id}`).set(owner.auth)).body.data;
    expect(detail.tool_calls).toEqual([
      {
        id: expect.stringMatching(/^tcl_/),
        tool_id: null,
        name: 'search_knowledge_base',
        ok: true,
        status_code: null,
        duration_ms: expect.any(Number),
        error: null,
        at: expect.any(String),
        knowledgebase_id: kb,
        knowledgebase_mode: 'prompt',
        query: 'How long until I get my refund?',
        passages: [{ rank: 1, document_id: docs.Refunds, document: 'Refunds', position: 1, score: expect.any(Number) }],
      },
    ]);
  });

  it('function_call mode: the model searches with search_knowledge_base and reads the passages back', async () => {
    const assistant = await createAssistant(t, owner, { knowledgebase_id: kb, knowledgebase_mode: 'function_call' });
    const id = await makeCall(t, owner, assistant);
    model.answer(
      completion({
        tool_calls: [
          {
            id: 'k1',
            type: 'function',
            function: { name: 'search_knowledge_base', arguments: '{"query":"when does the shop open"}' },
          },
        ],
      }),
      says('We open at 9 on weekdays.'),
    );
    const res = await say(id, 'When are you open?');
    expect(res.body).toMatchObject({ ok: true, reply: 'We open at 9 on weekdays.' });
    expect(sent(0).tools.map((f: { function: { name: string } }) => f.function.name)).toEqual([
      'search_knowledge_base',
    ]);
    expect(sent(0).messages[0].content).not.toContain('# Knowledge base');
    expect(sent(1).messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'k1',
      content: JSON.stringify({ passages: [{ document: 'Hours', content: HOURS }] }),
    });
    const detail = (await t.http.get(`/api/user/calls/${id}`).set(owner.auth)).body.data;
    expect(detail.tool_calls).toEqual([
      expect.objectContaining({
        tool_id: null,
        name: 'search_knowledge_base',
        knowledgebase_id: kb,
        knowledgebase_mode: 'function_call',
        query: 'when does the shop open',
        passages: [{ rank: 1, document_id: docs.Hours, document: 'Hours', position: 1, score: expect.any(Number) }],
      }),
    ]);
  });
});

describe('chat replies: the conversation lists the searches its answers used', () => {
  let senders = 0;
  async function chatWith(mode: 'prompt' | 'function_call') {
    const assistant = await createAssistant(t, owner, { knowledgebase_id: kb, knowledgebase_mode: mode });
    expect((await t.http.post(`/api/user/assistant/${assistant}/activate`).set(owner.auth)).status).toBe(200);
    const phone = `+49152${String(Date.now() % 1_000_000).padStart(6, '0')}${String(++senders).padStart(2, '0')}`;
    const res = await t.http
      .post('/api/user/chatapp/senders')
      .set(owner.auth)
      .send({ phone_number: phone, display_name: 'Shop', assistant_id: assistant });
    expect(res.status).toBe(201);
    return res.body.data.id as number;
  }
  const inbound = (senderId: number, text: string) =>
    t.http
      .post('/api/sandbox/chatapp/inbound-message')
      .set(owner.auth)
      .send({ sender_id: senderId, from_phone: '+14155550123', text });

  it('prompt mode: the passages added to the instructions are logged on the conversation', async () => {
    const senderId = await chatWith('prompt');
    model.answer(says('Refunds take up to 14 days.'));
    const res = await inbound(senderId, 'How long until I get my refund?');
    expect(res.body.ai_reply).toMatchObject({ body: 'Refunds take up to 14 days.' });
    expect(sent(0).messages[0].content).toContain(`[1] (Refunds) ${REFUNDS}`);
    const conversation = (await t.http.get(`/api/user/conversations/${res.body.conversation_uuid}`).set(owner.auth))
      .body.data;
    expect(conversation.tool_calls).toEqual([
      expect.objectContaining({
        tool_id: null,
        name: 'search_knowledge_base',
        knowledgebase_id: kb,
        knowledgebase_mode: 'prompt',
        query: 'How long until I get my refund?',
        passages: [{ rank: 1, document_id: docs.Refunds, document: 'Refunds', position: 1, score: expect.any(Number) }],
      }),
    ]);
  });

  it('function_call mode: each search_knowledge_base call is logged on the conversation', async () => {
    const senderId = await chatWith('function_call');
    model.answer(
      completion({
        tool_calls: [
          {
            id: 'k1',
            type: 'function',
            function: { name: 'search_knowledge_base', arguments: '{"query":"when does the shop open"}' },
          },
        ],
      }),
      says('We open at 9 on weekdays.'),
    );
    const res = await inbound(senderId, 'When are you open?');
    expect(res.body.ai_reply).toMatchObject({ body: 'We open at 9 on weekdays.' });
    const conversation = (await t.http.get(`/api/user/conversations/${res.body.conversation_uuid}`).set(owner.auth))
      .body.data;
    expect(conversation.tool_calls).toEqual([
      expect.objectContaining({
        knowledgebase_mode: 'function_call',
        query: 'when does the shop open',
        passages: [{ rank: 1, document_id: docs.Hours, document: 'Hours', position: 1, score: expect.any(Number) }],
      }),
    ]);
  });
});

describe('POST /api/runtime/knowledge-searches: the voice agent reads the knowledge base of its call', () => {
  const search = (body: Record<string, unknown>) =>
    t.http.post('/api/runtime/knowledge-searches').set(t.runtimeAuth).send(body);

  it("answers the passages of the call's assistant's knowledge base, best first, and logs the search on the call", async () => {
    const assistant = await createAssistant(t, owner, { knowledgebase_id: kb, knowledgebase_mode: 'prompt' });
    const id = await makeCall(t, owner, assistant);
    const res = await search({ call_id: id, query: 'How long until I get my refund?', mode: 'prompt' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      passages: [
        {
          rank: 1,
          document_id: docs.Refunds,
          document: 'Refunds',
          position: 1,
          content: REFUNDS,
          score: expect.any(Number),
        },
      ],
    });
    expect(
      (await search({ call_id: id, query: 'zebra quantum', mode: 'function_call', knowledgebase_id: kb })).body,
    ).toEqual({ passages: [] });
    const detail = (await t.http.get(`/api/user/calls/${id}`).set(owner.auth)).body.data;
    expect(
      detail.tool_calls.map((c: Record<string, unknown>) => [c.name, c.tool_id, c.knowledgebase_mode, c.query]),
    ).toEqual([
      ['search_knowledge_base', null, 'prompt', 'How long until I get my refund?'],
      ['search_knowledge_base', null, 'function_call', 'zebra quantum'],
    ]);
  });

  it("searches no other knowledge base: not one the call does not name, not another account's; refuses bad bodies and ended calls", async () => {
    const stranger = await t.createUser();
    const theirs = (await t.http.post('/api/user/knowledgebases').set(stranger.auth).send({ name: 'Theirs' })).body.data
      .id;
    const mine = (await t.http.post('/api/user/knowledgebases').set(owner.auth).send({ name: 'Other' })).body.data.id;
    const withKb = await makeCall(
      t,
      owner,
      await createAssistant(t, owner, { knowledgebase_id: kb, knowledgebase_mode: 'function_call' }),
    );
    const withoutKb = await makeCall(t, owner, await createAssistant(t, owner, {}));
    const none = { message: "The call's assistant has no such knowledge base." };
    expect([
      (await search({ call_id: withKb, query: 'refund', mode: 'prompt', knowledgebase_id: mine })).status,
    ]).toEqual([404]);
    expect((await search({ call_id: withKb, query: 'refund', mode: 'prompt', knowledgebase_id: theirs })).body).toEqual(
      none,
    );
    expect((await search({ call_id: withoutKb, query: 'refund', mode: 'prompt' })).body).toEqual(none);
    expect((await search({ call_id: 99_999_999, query: 'refund', mode: 'prompt' })).status).toBe(404);
    const bad = await search({ call_id: withKb, query: '', mode: 'sometimes' });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors ?? {}).sort()).toEqual(['mode', 'query']);
    expect(
      (
        await t.http
          .post('/api/runtime/knowledge-searches')
          .set(owner.auth)
          .send({ call_id: withKb, query: 'refund', mode: 'prompt' })
      ).status,
    ).toBe(401);
    const ended = await t.http
      .post(`/api/runtime/calls/${withKb}/events`)
      .set(t.runtimeAuth)
      .send({ event_id: `kb-end-${withKb}`, type: 'ended', data: { status: 'no-answer' } });
    expect(ended.body).toMatchObject({ ok: true, call: { status: 'no-answer' } });
    expect((await search({ call_id: withKb, query: 'refund', mode: 'prompt' })).body).toEqual({
      message: 'Call already ended.',
    });
  });
});
