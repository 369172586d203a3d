import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';
import { RecordingStub, StubAnswer } from '@voiceplane/stand-ins/stubs/recording-stub';
import { verifyWithReference, WebhookReceiver } from '@voiceplane/stand-ins/fault/webhook-receiver';
import { createAssistant, getCall, makeCall } from '@voiceplane/stand-ins/calls/fixtures';

/**
 * The conversation policy through the composed app (REPLY_GENERATOR=openai) against a scripted
 * OpenAI-compatible server on 127.0.0.1: sandbox text calls and chat-app AI replies, each with
 * a tool round through the real gateway to a receiver, and `end_call` running the end of the call
 * with the evaluator's values.
 */

let t: TestApi;
let model: RecordingStub;
let receiver: WebhookReceiver;
let owner: TestUser;
let stranger: TestUser;
let tool: number;
let assistant: number;

const completion = (message: Record<string, unknown>): StubAnswer => ({
  status: 200,
  body: {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    choices: [{ index: 0, message: { role: 'assistant', content: null, ...message }, finish_reason: 'stop' }],
  },
});
const says = (content: string) => completion({ content });
const calls = (...fns: Array<[string, Record<string, unknown>]>) =>
  completion({
    tool_calls: fns.map(([name, args], i) => ({
      id: `call_${i}_${name}`,
      type: 'function',
      function: { name, arguments: JSON.stringify(args) },
    })),
  });
const sent = (i: number) => JSON.parse(model.requests[i].body);

beforeAll(async () => {
  model = await RecordingStub.start({ status: 500, body: { error: { message: 'nothing scripted' } } });
  receiver = await WebhookReceiver.start((hook) => {
    if (hook.path.startsWith('/orders/B-500')) return { status: 500, body: 'boom' };
    if (hook.path.startsWith('/orders/C-slow')) return { status: 200, body: '{}', delayMs: 1_500 };
    return { status: 200, headers: { 'content-type': 'application/json' }, body: '{"status":"shipped"}' };
  });
  t = await createTestApi({
    startBackground: false,
    env: { REPLY_GENERATOR: 'openai', OPENAI_API_KEY: 'sk-test-brain', OPENAI_BASE_URL: `${model.baseUrl}v1` },
  });
  owner = await t.createUser();
  stranger = await t.createUser();
  tool = (
    await t.http
      .post('/api/user/tools')
      .set(owner.auth)
      .send({
        name: 'check_order',
        description: 'Look up an order',
        method: 'GET',
        timeout: 1,
        endpoint: `${receiver.url('/orders/{order_id}')}?call={{call_id}}&conv={{conversation_id}}`,
        schema: [{ name: 'order_id', type: 'string', description: 'The order number', required: true }],
      })
  ).body.data.id;
  assistant = await createAssistant(t, owner, {
    system_prompt: 'You help {{customer_name}} of {{company}}.',
    variables: { company: 'Acme', customer_name: 'nobody' },
    tool_ids: [tool],
    tools: [{ type: 'end_call', description: 'Hang up when done.' }],
    timezone: 'Europe/Berlin',
    post_call_schema: [{ name: 'order_id', type: 'string', description: 'The order asked about' }],
    webhook_url: 'https://hooks.example.com/calls',
    is_webhook_active: true,
  });
});
afterAll(async () => {
  await t.close();
  await model.close();
  await receiver.close();
});
beforeEach(() => model.reset());

const say = (user: TestUser, callId: number | string, body: unknown) =>
  t.http
    .post(`/api/sandbox/calls/${callId}/say`)
    .set(user.auth)
    .send(body as object);

describe('POST /api/sandbox/calls/{id}/say', () => {
  it('answers a ringing call as on a real call: instructions, a tool round through the gateway, transcript and tool_calls', async () => {
    const id = await makeCall(t, owner, assistant, '+14155551234', { customer_name: 'Ann' });
    model.answer(calls(['check_order', { order_id: 'A-1' }]), says('Your order A-1 has shipped.'));

    const res = await say(owner, id, { text: 'Where is order A-1?' });
    expect([res.status, res.body]).toEqual([
      200,
      {
        ok: true,
        reply: 'Your order A-1 has shipped.',
        tool_calls: [{ name: 'check_order', ok: true, status_code: 200 }],
        ended: false,
        call: { id, status: 'in-progress' },
      },
    ]);

    const first = sent(0);
    expect(model.requests[0]).toEqual(
      expect.objectContaining({ path: '/v1/chat/completions', authorization: 'Bearer sk-test-brain' }),
    );
    expect(first.messages[0]).toEqual({
      role: 'system',
      content: expect.stringMatching(
        /^You help Ann of Acme\.\n\nSpeak English \(en\)\.\n\nThe current local time is .* \(Europe\/Berlin, UTC\+0[12]:00\)\.$/,
      ),
    });
    expect(first.messages.slice(1)).toEqual([{ role: 'user', content: 'Where is order A-1?' }]);
    expect(first.tools.map((f: { function: { name: string } }) => f.function.name)).toEqual([
      'check_order',
      'end_call',
    ]);
    expect(first.tools[1].function.description).toBe('Hang up when done.');
    expect(sent(1).messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'call_0_check_order',
      content: '{"status":"shipped"}',
    });

    const [request] = receiver.received.filter((r) => r.path.startsWith('/orders/A-1'));
    expect(request.path).toBe(`/orders/A-1?call=${id}&conv=`);
    const secret = (await t.http.get('/api/user/webhooks/signing-secret').set(owner.auth)).body.secret;
    expect(() => verifyWithReference(secret, request)).not.toThrow();

    const call = await getCall(t, owner, id);
    expect(call.transcript_items.map((i: { role: string; content: string }) => [i.role, i.content])).toEqual([
      ['customer', 'Where is order A-1?'],
      ['assistant', '[tool check_order] {"status":"shipped"}'],
      ['assistant', 'Your order A-1 has shipped.'],
    ]);
    expect(call.tool_calls).toEqual([
      expect.objectContaining({
        tool_id: tool,
        name: 'check_order',
        ok: true,
        status_code: 200,
        id: request.webhookId,
      }),
    ]);

    // The next line sees the conversation so far (spoken lines only).
    model.answer(says('You are welcome.'));
    await say(owner, id, { text: 'Thanks!' }).expect(200);
    expect(sent(2).messages.slice(1)).toEqual([
      { role: 'user', content: 'Where is order A-1?' },
      { role: 'assistant', content: 'Your order A-1 has shipped.' },
      { role: 'user', content: 'Thanks!' },
    ]);
  });

  it("end_call ends the call completed / assistant_ended; the evaluator's values reach the call and the post_call payload", async () => {
    const id = await makeCall(t, owner, assistant, '+14155551234', { customer_name: 'Ann' });
    model.answer(says('Hello Ann.'));
    await say(owner, id, { text: 'Hi, this is about order A-7.' }).expect(200);
    model.answer(
      completion({
        content: 'Goodbye, Ann!',
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'end_call', arguments: '{}' } }],
      }),
      says('{"order_id":"A-7","status":true,"summary":"Ann asked about A-7."}'),
    );

    const res = await say(owner, id, { text: 'That is all, bye.' });
    expect(res.body).toEqual({
      ok: true,
      reply: 'Goodbye, Ann!',
      tool_calls: [{ name: 'end_call', ok: true, status_code: null }],
      ended: true,
      call: { id, status: 'completed' },
    });
    const evaluation = sent(2);
    expect(evaluation).toEqual(expect.objectContaining({ temperature: 0, response_format: { type: 'json_object' } }));
    expect(evaluation.messages[1].content).toBe(
      'Customer: Hi, this is about order A-7.\nAssistant: Hello Ann.\nCustomer: That is all, bye.\nAssistant: [tool end_call] {"ok":true,"message":"The call ends after this answer."}\nAssistant: Goodbye, Ann!',
    );

    const call = await getCall(t, owner, id);
    const values = { order_id: 'A-7', status: true, summary: 'Ann asked about A-7.' };
    expect(call).toEqual(
      expect.objectContaining({ status: 'completed', ended_reason: 'assistant_ended', extracted_variables: values }),
    );
    const [delivery] = (
      await t.http.get('/api/user/webhooks/deliveries?event_type=post_call').set(owner.auth)
    ).body.data.filter((d: { subject: { id: number } }) => d.subject.id === id);
    const detail = await t.http.get(`/api/user/webhooks/deliveries/${delivery.id}`).set(owner.auth);
    expect(detail.body.data.payload).toEqual(
      expect.objectContaining({ id, status: 'completed', extracted_variables: values }),
    );

    expect((await say(owner, id, { text: 'Hello?' })).body).toEqual({ message: 'The call is not in progress.' });
  });

  it('a tool answering 500 or timing out is reported to the model and the call goes on', async () => {
    const id = await makeCall(t, owner, assistant);
    model.answer(
      calls(['check_order', { order_id: 'B-500' }], ['check_order', { order_id: 'C-slow' }]),
      says('The order system is down, sorry.'),
    );
    const res = await say(owner, id, { text: 'Orders B-500 and C-slow?' });
    expect(res.body).toEqual(
      expect.objectContaining({
        reply: 'The order system is down, sorry.',
        ended: false,
        call: { id, status: 'in-progress' },
        tool_calls: [
          { name: 'check_order', ok: false, status_code: 500 },
          { name: 'check_order', ok: false, status_code: null },
        ],
      }),
    );
    const results = sent(1)
      .messages.slice(-2)
      .map((m: { content: string }) => JSON.parse(m.content));
    expect(results).toEqual([
      { error: 'http_error', status: 500, body: 'boom' },
      { error: 'timeout', message: 'The tool did not answer within 1 second.' },
    ]);
    expect((await getCall(t, owner, id)).tool_calls.map((c: { error: string }) => c.error)).toEqual([
      'http_error',
      'timeout',
    ]);
  });

  it('a model that loops on functions stops at the round limit with the fallback; one that cannot be reached is a 502 and keeps the line', async () => {
    const id = await makeCall(t, owner, assistant);
    model.respondWith(() => calls(['no_such_function', {}]));
    const looped = await say(owner, id, { text: 'Hello?' });
    expect(looped.body).toEqual(
      expect.objectContaining({ reply: 'Sorry, I did not get that. Could you say it again?', ended: false }),
    );
    expect(model.requests).toHaveLength(6);

    model.reset();
    const down = await say(owner, id, { text: 'Anyone there?' });
    expect([down.status, down.body]).toEqual([502, { message: "The assistant's language model did not answer." }]);
    const call = await getCall(t, owner, id);
    expect(call.status).toBe('in-progress');
    expect(call.transcript_items.at(-1)).toEqual(
      expect.objectContaining({ role: 'customer', content: 'Anyone there?' }),
    );
  });

  it('bad input: 404 for missing and foreign calls, 409 for ended ones, 422 for a missing or too long text', async () => {
    const id = await makeCall(t, owner, assistant);
    for (const [user, target] of [
      [owner, 999_999_999],
      [stranger, id],
      [owner, 'abc'],
    ] as const) {
      const res = await say(user, target, { text: 'Hi' });
      expect([res.status, res.body]).toEqual([404, { message: 'Not found.' }]);
    }
    for (const body of [{}, { text: '   ' }, { text: 7 }, { text: '😀'.repeat(2001) }]) {
      const res = await say(owner, id, body);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ message: 'The given data was invalid.', errors: { text: [expect.any(String)] } });
    }
    expect((await say(owner, id, {})).body.errors.text).toEqual(['The text field is required.']);
    expect((await say(owner, id, { text: 'x'.repeat(2001) })).body.errors.text).toEqual([
      'The text may not be greater than 2000 characters.',
    ]);
    expect(model.requests).toEqual([]);

    model.answer(says('Got it.'));
    expect((await say(owner, id, { text: '😀'.repeat(2000) })).status).toBe(200);

    await t.http.post(`/api/sandbox/calls/${id}/finish`).set(owner.auth).send({ status: 'completed' }).expect(200);
    const ended = await say(owner, id, { text: 'Hi' });
    expect([ended.status, ended.body]).toEqual([409, { message: 'The call is not in progress.' }]);
    const busy = await makeCall(t, owner, assistant, '+15005550001');
    expect((await say(owner, busy, { text: 'Hi' })).status).toBe(409);
  });
});

describe('chat-app AI replies use the same policy', () => {
  it("calls the assistant's tool through the gateway with the conversation's values and answers with the model's final text", async () => {
    expect((await t.http.post(`/api/user/assistant/${assistant}/activate`).set(owner.auth)).status).toBe(200);
    const sender = (
      await t.http
        .post('/api/user/chatapp/senders')
        .set(owner.auth)
        .send({ phone_number: '+4915299990001', display_name: 'Acme', assistant_id: assistant })
    ).body.data.id;
    model.answer(calls(['check_order', { order_id: 'A-9' }]), says('A-9 has shipped.'));

    const inbound = await t.http
      .post('/api/sandbox/chatapp/inbound-message')
      .set(owner.auth)
      .send({ sender_id: sender, from_phone: '+14155550199', text: 'Status of A-9?' });
    expect(inbound.status).toBe(200);
    expect(inbound.body.ai_reply).toEqual(expect.objectContaining({ body: 'A-9 has shipped.' }));

    const first = sent(0);
    expect(first.messages[0].content).toMatch(/^You help nobody of Acme\./);
    expect(first.messages.slice(1)).toEqual([{ role: 'user', content: 'Status of A-9?' }]);
    expect(first.tools.map((f: { function: { name: string } }) => f.function.name)).toEqual(['check_order']);
    const [request] = receiver.received.filter((r) => r.path.startsWith('/orders/A-9'));
    expect(request.path).toBe(`/orders/A-9?call=&conv=${inbound.body.conversation_uuid}`);
    expect(request.headers['x-voiceplane-call-id']).toBeUndefined();
    const secret = (await t.http.get('/api/user/webhooks/signing-secret').set(owner.auth)).body.secret;
    expect(() => verifyWithReference(secret, request)).not.toThrow();
  });
});
