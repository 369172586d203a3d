import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';
import { RecordingStub, StubAnswer } from '@voiceplane/stand-ins/stubs/recording-stub';
import { WebhookReceiver } from '@voiceplane/stand-ins/fault/webhook-receiver';
import { createAssistant } from '@voiceplane/stand-ins/calls/fixtures';

/**
 * The AI chatbot and generate-reply through the composed app (REPLY_GENERATOR=openai) against a
 * scripted OpenAI-compatible server on 127.0.0.1, with the bodies Famulor's MCP server sends.
 */

let t: TestApi;
let model: RecordingStub;
let receiver: WebhookReceiver;
let owner: TestUser;
let stranger: TestUser;
let assistant: { id: number; uuid: string };

const completion = (message: Record<string, unknown>): StubAnswer => ({
  status: 200,
  body: {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    choices: [{ index: 0, message: { role: 'assistant', content: null, ...message }, finish_reason: 'stop' }],
  },
});
const says = (content: string) => completion({ content });
const calls = (name: string, args: Record<string, unknown>) =>
  completion({
    tool_calls: [{ id: `call_${name}`, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
  });
const sent = (i: number) => JSON.parse(model.requests[i].body);
const balanceOf = async (user: TestUser) =>
  (await t.http.get('/api/user/billing/balance').set(user.auth)).body.total_balance as number;
const chargesOf = async (user: TestUser) =>
  (
    (await t.http.get('/api/user/billing/ledger?per_page=100').set(user.auth)).body.data as Array<{
      type: string;
      amount: number;
      reference: { type: string } | null;
    }>
  ).filter((e) => e.reference?.type === 'conversation_message');

// The MCP server's tools, exactly as they send: create_conversation, get_conversation, send_message, generate_ai_reply.
const createConversation = (user: TestUser, body: Record<string, unknown>) =>
  t.http.post('/api/conversations').set(user.auth).send(body);
const getConversation = (user: TestUser, uuid: string) => t.http.get(`/api/conversations/${uuid}`).set(user.auth);
const sendMessage = (user: TestUser, uuid: string, message: unknown) =>
  t.http.post(`/api/conversations/${uuid}/messages`).set(user.auth).send({ message });
const generateReply = (user: TestUser, body: Record<string, unknown>) =>
  t.http.post('/api/ai/generate-reply').set(user.auth).send(body);

beforeAll(async () => {
  model = await RecordingStub.start({ status: 500, body: { error: { message: 'nothing scripted' } } });
  receiver = await WebhookReceiver.start(() => ({
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: '{"available_slots":["2025-01-10 14:00"]}',
  }));
  t = await createTestApi({
    startBackground: false,
    env: { REPLY_GENERATOR: 'openai', OPENAI_API_KEY: 'sk-test-chat', OPENAI_BASE_URL: `${model.baseUrl}v1` },
  });
  owner = await t.createUser({ balance: 10 });
  stranger = await t.createUser({ balance: 10 });
  const tool = (
    await t.http
      .post('/api/user/tools')
      .set(owner.auth)
      .send({
        name: 'check_calendar_availability',
        description: 'Free slots',
        method: 'GET',
        timeout: 2,
        endpoint: `${receiver.url('/slots')}?conv={{conversation_id}}`,
        schema: [{ name: 'date_range', type: 'string', description: 'Which days', required: true }],
      })
  ).body.data.id;
  const id = await createAssistant(t, owner, {
    system_prompt: 'You help {{customer_name}} of {{company}}.',
    initial_message: 'Hello {{customer_name}}! Welcome to {{company}} support.',
    variables: { company: 'Acme Corp', customer_name: 'there' },
    tool_ids: [tool],
    tools: [{ type: 'end_call' }],
  });
  // The record's `uuid` is read here from its table (the assistants suite reads it through the API).
  assistant = { id, uuid: (await t.db.dataSource.query('SELECT uuid FROM assistants WHERE id = $1', [id]))[0].uuid };
});
afterAll(async () => {
  await t.close();
  await model.close();
  await receiver.close();
});
beforeEach(() => model.reset());

describe('POST /api/conversations (create_conversation)', () => {
  it('starts a chat by assistant UUID with the initial message, the variables filled in', async () => {
    expect(assistant.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const res = await createConversation(owner, {
      assistant_id: assistant.uuid,
      type: 'test',
      variables: { customer_name: 'John Smith' },
    });
    expect([res.status, res.body]).toEqual([
      200,
      {
        status: true,
        conversation_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        history: [{ role: 'assistant', content: 'Hello John Smith! Welcome to Acme Corp support.' }],
      },
    ]);
    expect(model.requests).toEqual([]);
    const listed = await t.http.get(`/api/user/conversations/${res.body.conversation_id}`).set(owner.auth);
    expect(listed.body.data).toEqual(
      expect.objectContaining({
        type: 'test',
        assistant_id: assistant.id,
        sender_id: null,
        customer_phone: null,
        message_count: 1,
      }),
    );
  });

  it('accepts the integer id too; widget is the default type; an unknown, foreign or malformed assistant is the documented 404', async () => {
    const res = await createConversation(owner, { assistant_id: assistant.id });
    expect(res.status).toBe(200);
    expect(
      (await t.http.get(`/api/user/conversations/${res.body.conversation_id}`).set(owner.auth)).body.data.type,
    ).toBe('widget');
    for (const assistantId of [assistant.uuid, '00000000-0000-4000-8000-000000000000', 'not-a-uuid', 999_999]) {
      const refused = await createConversation(stranger, { assistant_id: assistantId });
      expect([refused.status, refused.body]).toEqual([404, { status: false, error: 'Assistant not found' }]);
    }
  });

  it('refuses bad bodies with 422 in the chatbot family', async () => {
    expect((await createConversation(owner, {})).body).toEqual({
      status: false,
      error: 'assistant_id is required',
      errors: { assistant_id: ['The assistant id field is required.'] },
    });
    expect((await createConversation(owner, { assistant_id: assistant.uuid, type: 'whatsapp' })).status).toBe(422);
    expect((await createConversation(owner, { assistant_id: assistant.uuid, variables: 'x' })).status).toBe(422);
  });

  it('refuses a billed chat without balance (400, documented body); a test chat starts anyway', async () => {
    const broke = await t.createUser({ balance: 0 });
    const id = await createAssistant(t, broke, {});
    const res = await createConversation(broke, { assistant_id: id, type: 'widget' });
    expect([res.status, res.body]).toEqual([
      400,
      { status: false, error: 'Insufficient balance. Please top up your account.' },
    ]);
    expect((await createConversation(broke, { assistant_id: id, type: 'test' })).status).toBe(200);
  });
});

describe('POST /api/conversations/{uuid}/messages (send_message) and GET /api/conversations/{uuid} (get_conversation)', () => {
  it('answers with a tool round through the gateway, keeps the function calls in the history, and charges a widget chat once per message', async () => {
    const chat = (
      await createConversation(owner, {
        assistant_id: assistant.uuid,
        type: 'widget',
        variables: { customer_name: 'Jane' },
      })
    ).body.conversation_id;
    const before = await balanceOf(owner);
    model.answer(
      calls('check_calendar_availability', { date_range: 'next_week' }),
      says('I found a slot. Does it suit you?'),
    );

    const res = await sendMessage(owner, chat, "I'd like to schedule a demo");
    expect([res.status, res.body]).toEqual([
      200,
      {
        status: true,
        message: 'I found a slot. Does it suit you?',
        function_calls: [
          {
            name: 'check_calendar_availability',
            arguments: { date_range: 'next_week' },
            result: { available_slots: ['2025-01-10 14:00'] },
          },
        ],
      },
    ]);
    expect(sent(0).messages[0].content).toMatch(/^You help Jane of Acme Corp\./);
    expect(sent(0).messages.slice(1)).toEqual([
      { role: 'assistant', content: 'Hello Jane! Welcome to Acme Corp support.' },
      { role: 'user', content: "I'd like to schedule a demo" },
    ]);
    expect(sent(0).tools.map((f: { function: { name: string } }) => f.function.name)).toEqual([
      'check_calendar_availability',
      'end_call',
    ]);
    expect(receiver.received.at(-1)?.path).toBe(`/slots?conv=${chat}&date_range=next_week`);
    expect(await balanceOf(owner)).toBeCloseTo(before - 0.01, 4);

    const detail = await t.http.get(`/api/user/conversations/${chat}`).set(owner.auth);
    expect(detail.body.data.tool_calls).toEqual([
      expect.objectContaining({ name: 'check_calendar_availability', ok: true, status_code: 200 }),
    ]);

    const history = await getConversation(owner, chat);
    expect([history.status, history.body]).toEqual([
      200,
      {
        status: true,
        history: [
          { role: 'assistant', content: 'Hello Jane! Welcome to Acme Corp support.' },
          { role: 'user', content: "I'd like to schedule a demo" },
          {
            role: 'assistant',
            content: 'I found a slot. Does it suit you?',
            function_calls: [
              {
                name: 'check_calendar_availability',
                arguments: { date_range: 'next_week' },
                result: { available_slots: ['2025-01-10 14:00'] },
              },
            ],
          },
        ],
        variables: { customer_name: 'Jane' },
      },
    ]);
  });

  it('a test chat is free; end_call ends the conversation', async () => {
    const chat = (await createConversation(owner, { assistant_id: assistant.uuid, type: 'test' })).body.conversation_id;
    const before = (await chargesOf(owner)).length;
    model.answer(
      completion({
        content: 'Goodbye!',
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'end_call', arguments: '{}' } }],
      }),
    );
    const res = await sendMessage(owner, chat, 'Bye');
    expect(res.body).toEqual({
      status: true,
      message: 'Goodbye!',
      function_calls: [{ name: 'end_call', arguments: {}, result: expect.objectContaining({ ok: true }) }],
    });
    expect((await chargesOf(owner)).length).toBe(before);
    expect((await t.http.get(`/api/user/conversations/${chat}`).set(owner.auth)).body.data).toEqual(
      expect.objectContaining({ status: 'ended', ended_count: 1 }),
    );
  });

  it('takes messages up to 2000 characters; longer, empty or missing ones are 422; a foreign or missing conversation is the documented 404', async () => {
    const chat = (await createConversation(owner, { assistant_id: assistant.uuid, type: 'test' })).body.conversation_id;
    model.respondWith(() => says('OK.'));
    expect((await sendMessage(owner, chat, '😀'.repeat(2000))).status).toBe(200);
    expect((await sendMessage(owner, chat, 'x'.repeat(2001))).body).toEqual({
      status: false,
      error: 'The message may not be greater than 2000 characters.',
      errors: { message: ['The message may not be greater than 2000 characters.'] },
    });
    expect((await sendMessage(owner, chat, undefined)).body).toEqual(
      expect.objectContaining({ status: false, error: 'message is required' }),
    );
    for (const [user, target] of [
      [stranger, chat],
      [owner, '7c9e6679-7425-40de-944b-e07fc1f90ae7'],
    ] as const) {
      for (const res of [await sendMessage(user, target, 'Hi'), await getConversation(user, target)]) {
        expect([res.status, res.body]).toEqual([404, { status: false, error: 'Conversation not found' }]);
      }
    }
  });

  it('refuses a billed message without balance with the documented 400 and stores nothing', async () => {
    const poor = await t.createUser({ balance: 0.01 });
    const id = await createAssistant(t, poor, {});
    const chat = (await createConversation(poor, { assistant_id: id })).body.conversation_id;
    model.respondWith(() => says('Sure.'));
    expect((await sendMessage(poor, chat, 'First')).status).toBe(200);
    const res = await sendMessage(poor, chat, 'Second');
    expect([res.status, res.body]).toEqual([
      400,
      { status: false, error: 'Insufficient balance. Please top up your account.' },
    ]);
    expect((await getConversation(poor, chat)).body.history).toHaveLength(2);
  });

  it('charges concurrent widget messages exactly once each and never past the balance', async () => {
    const user = await t.createUser({ balance: 0.05 });
    const id = await createAssistant(t, user, {});
    const chat = (await createConversation(user, { assistant_id: id })).body.conversation_id;
    model.respondWith(() => says('Noted.'));
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => sendMessage(user, chat, `message ${i}`)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(5);
    expect(answers.filter((a) => a.status === 400)).toHaveLength(7);
    expect(await balanceOf(user)).toBe(0);
    expect(await chargesOf(user)).toHaveLength(5);
  });

  it('a model that fails is a 400 Processing Error and the charge is given back', async () => {
    const chat = (await createConversation(owner, { assistant_id: assistant.uuid })).body.conversation_id;
    const before = await balanceOf(owner);
    const res = await sendMessage(owner, chat, 'Hello?');
    expect([res.status, res.body]).toEqual([
      400,
      { status: false, error: "Failed to process message: the assistant's language model did not answer" },
    ]);
    expect(await balanceOf(owner)).toBeCloseTo(before, 4);
  });

  it('after disable-ai the message is stored unanswered and free, and a human answers through the conversation routes', async () => {
    const chat = (await createConversation(owner, { assistant_id: assistant.uuid })).body.conversation_id;
    await t.http.post(`/api/automate/conversations/${chat}/disable-ai`).set(owner.auth).expect(200);
    const charges = (await chargesOf(owner)).length;
    const res = await sendMessage(owner, chat, 'Is anyone there?');
    expect(res.body).toEqual({ status: true, message: null, function_calls: [], ai_disabled: true });
    expect(model.requests).toEqual([]);
    expect((await chargesOf(owner)).length).toBe(charges);
    const human = await t.http
      .post(`/api/user/conversations/${chat}/messages`)
      .set(owner.auth)
      .send({ message: 'Yes, Ann here.' });
    expect(human.body.data).toEqual(
      expect.objectContaining({ source: 'api', role: 'assistant', body: 'Yes, Ann here.' }),
    );
    expect((await getConversation(owner, chat)).body.history.slice(-2)).toEqual([
      { role: 'user', content: 'Is anyone there?' },
      { role: 'assistant', content: 'Yes, Ann here.' },
    ]);
  });
});

describe('POST /api/user/ai/generate-reply (generate_ai_reply as /api/ai/generate-reply)', () => {
  it('keeps one conversation per customer identifier, merges variables and answers in the documented shape', async () => {
    const user = await t.createUser({ balance: 1 });
    const id = await createAssistant(t, user, { system_prompt: 'Help {{customer_name}} via {{source}}.' });
    model.answer(says('Hi John!'), says('Tomorrow works.'));
    const first = await generateReply(user, {
      assistant_id: id,
      customer_identifier: '+14155551234',
      message: 'Hello',
      variables: { customer_name: 'John', source: 'sms' },
    });
    expect([first.status, first.body]).toEqual([
      200,
      {
        success: true,
        conversation_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        customer_identifier: '+14155551234',
        reply: 'Hi John!',
        function_calls: [],
        ai_disabled: false,
      },
    ]);
    const second = await t.http
      .post('/api/user/ai/generate-reply')
      .set(user.auth)
      .send({
        assistant_id: String(id),
        customer_identifier: '+14155551234',
        message: 'Appointment?',
        variables: { source: 'whatsapp' },
      });
    expect(second.body).toEqual(
      expect.objectContaining({ conversation_id: first.body.conversation_id, reply: 'Tomorrow works.' }),
    );
    expect(sent(1).messages[0].content).toMatch(/^Help John via whatsapp\./);
    expect(
      sent(1)
        .messages.slice(1)
        .map((m: { content: string }) => m.content),
    ).toEqual(['Hello', 'Hi John!', 'Appointment?']);
    const listed = await t.http
      .get('/api/user/conversations?type=api&external_identifier=%2B14155551234')
      .set(user.auth);
    expect(listed.body.data.map((c: { uuid: string; type: string }) => [c.uuid, c.type])).toEqual([
      [first.body.conversation_id, 'external'],
    ]);
    expect((await getConversation(user, first.body.conversation_id)).body).toEqual(
      expect.objectContaining({
        variables: { customer_name: 'John', source: 'whatsapp' },
        external_identifier: '+14155551234',
      }),
    );
    expect(await chargesOf(user)).toHaveLength(2);
  });

  it('answers 404, 402 and 422 in the documented shapes', async () => {
    const user = await t.createUser({ balance: 0 });
    const id = await createAssistant(t, user, {});
    const missing = await generateReply(user, {
      assistant_id: assistant.id,
      customer_identifier: 'c-1',
      message: 'Hi',
    });
    expect([missing.status, missing.body]).toEqual([
      404,
      { success: false, error: 'Assistant not found or does not belong to you', error_code: 'ASSISTANT_NOT_FOUND' },
    ]);
    const broke = await generateReply(user, { assistant_id: id, customer_identifier: 'c-1', message: 'Hi' });
    expect([broke.status, broke.body]).toEqual([
      402,
      {
        success: false,
        error: 'Insufficient balance. Please top up your account.',
        error_code: 'INSUFFICIENT_BALANCE',
      },
    ]);
    const invalid = await generateReply(user, { customer_identifier: 'x'.repeat(256), message: 'Hi' });
    expect([invalid.status, invalid.body.errors]).toEqual([
      422,
      {
        assistant_id: ['The assistant id field is required.'],
        customer_identifier: ['The customer identifier may not be greater than 255 characters.'],
      },
    ]);
  });

  it('answers the 6th request of a minute on one token 429', async () => {
    // The quota counts in fixed one-minute windows: a burst that straddles two proves nothing, so a fresh token tries again.
    let statuses: number[] = [];
    let limited: { body: unknown } = { body: null };
    for (let tries = 0; tries < 5; tries += 1) {
      const user = await t.createUser({ balance: 0 });
      const minute = Math.floor(Date.now() / 60_000);
      const answers = [];
      for (let i = 0; i < 6; i += 1)
        answers.push(await generateReply(user, { assistant_id: 1, customer_identifier: 'c-1', message: 'Hi' }));
      [statuses, limited] = [answers.map((a) => a.status), answers[5]];
      if (Math.floor(Date.now() / 60_000) === minute) break;
    }
    expect(statuses).toEqual([404, 404, 404, 404, 404, 429]);
    expect(limited.body).toEqual({ message: 'Too Many Attempts.', retry_after: expect.any(Number) });
  });
});
