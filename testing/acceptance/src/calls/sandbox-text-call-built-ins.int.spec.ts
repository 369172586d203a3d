import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';
import { RecordingStub, StubAnswer } from '@voiceplane/stand-ins/stubs/recording-stub';
import { WebhookReceiver } from '@voiceplane/stand-ins/fault/webhook-receiver';
import { createAssistant, getCall, makeCall } from '@voiceplane/stand-ins/calls/fixtures';

/**
 * Sandbox text-call built-ins that change who answers or what the next line is, through the composed app
 * (REPLY_GENERATOR=openai) against a scripted OpenAI-compatible server on 127.0.0.1:
 * `assistant_transfer` hands the text call over, `collect_keypad` takes the next line as keys,
 * `calendar_integration` is refused as on a call.
 */

let t: TestApi;
let model: RecordingStub;
let receiver: WebhookReceiver;
let owner: TestUser;
let invoiceTool: number;

const completion = (message: Record<string, unknown>): StubAnswer => ({
  status: 200,
  body: {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    choices: [{ index: 0, message: { role: 'assistant', content: null, ...message }, finish_reason: 'stop' }],
  },
});
const says = (content: string) => completion({ content });
const calls = (name: string, args: Record<string, unknown> = {}, content: string | null = null) =>
  completion({
    content,
    tool_calls: [{ id: `call_${name}`, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
  });
const sent = (i: number) => JSON.parse(model.requests[i].body);
const spoken = (m: { role: string; content: string | null }) => `${m.role}: ${m.content}`;
const toolNames = (request: { tools?: Array<{ function: { name: string } }> }) =>
  (request.tools ?? []).map((f) => f.function.name);
const lines = async (id: number) =>
  (await getCall(t, owner, id)).transcript_items.map(
    (i: { role: string; content: string }) => `${i.role}: ${i.content}`,
  );

beforeAll(async () => {
  model = await RecordingStub.start({ status: 500, body: { error: { message: 'nothing scripted' } } });
  receiver = await WebhookReceiver.start(() => ({
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: '{"paid":true}',
  }));
  t = await createTestApi({
    startBackground: false,
    env: { REPLY_GENERATOR: 'openai', OPENAI_API_KEY: 'sk-test-brain', OPENAI_BASE_URL: `${model.baseUrl}v1` },
  });
  owner = await t.createUser();
  invoiceTool = (
    await t.http
      .post('/api/user/tools')
      .set(owner.auth)
      .send({
        name: 'check_invoice',
        description: 'Look up an invoice',
        method: 'GET',
        timeout: 2,
        endpoint: receiver.url('/invoices/{invoice_id}'),
        schema: [{ name: 'invoice_id', type: 'string', description: 'The invoice number', required: true }],
      })
  ).body.data.id;
});
afterAll(async () => {
  await t.close();
  await model.close();
  await receiver.close();
});
beforeEach(() => model.reset());

const say = (callId: number, text: string) =>
  t.http.post(`/api/sandbox/calls/${callId}/say`).set(owner.auth).send({ text });

describe('sandbox text-call built-ins: hand-over, keypad, calendar', () => {
  it('assistant_transfer: the other assistant answers the rest of the call with its instructions, variables, tools and the conversation so far', async () => {
    const billing = await createAssistant(t, owner, {
      name: 'Billing',
      system_prompt: 'You are {{team}} for {{customer_name}}.',
      variables: { team: 'billing' },
      initial_message: 'Billing here, {{customer_name}}.',
      tool_ids: [invoiceTool],
      tools: [{ type: 'end_call' }],
    });
    const desk = await createAssistant(t, owner, {
      name: 'Front desk',
      system_prompt: 'You are the front desk.',
      tools: [
        {
          type: 'assistant_transfer',
          assistant_id: billing,
          message_before_transfer: 'Connecting you to billing, {{customer_name}}.',
        },
      ],
    });
    const id = await makeCall(t, owner, desk, '+14155551234', { customer_name: 'Ann' });

    model.answer(calls('assistant_transfer'));
    const handed = await say(id, 'I have a billing question.');
    expect([handed.status, handed.body]).toEqual([
      200,
      {
        ok: true,
        reply: 'Connecting you to billing, Ann.\nBilling here, Ann.',
        tool_calls: [{ name: 'assistant_transfer', ok: true, status_code: null }],
        ended: false,
        call: { id, status: 'in-progress' },
      },
    ]);
    expect(model.requests).toHaveLength(1); // the leaving assistant is not asked again
    expect(toolNames(sent(0))).toEqual(['assistant_transfer']);

    model.answer(calls('check_invoice', { invoice_id: 'F-12' }), says('Invoice F-12 is paid.'));
    const answered = await say(id, 'Is invoice F-12 paid?');
    expect(answered.body).toEqual(
      expect.objectContaining({
        reply: 'Invoice F-12 is paid.',
        tool_calls: [{ name: 'check_invoice', ok: true, status_code: 200 }],
      }),
    );
    const asked = sent(1);
    expect(asked.messages[0].content).toMatch(/^You are billing for Ann\./);
    expect(toolNames(asked)).toEqual(['check_invoice', 'end_call']);
    expect(asked.messages.slice(1).map(spoken)).toEqual([
      'user: I have a billing question.',
      'assistant: Connecting you to billing, Ann.',
      'assistant: Billing here, Ann.',
      'user: Is invoice F-12 paid?',
    ]);
    expect(receiver.received.map((r) => r.path)).toContain('/invoices/F-12');

    model.answer(calls('end_call', {}, 'Goodbye!'));
    expect((await say(id, 'Thanks, bye.')).body).toEqual(
      expect.objectContaining({ reply: 'Goodbye!', ended: true, call: { id, status: 'completed' } }),
    );
    const call = await getCall(t, owner, id);
    expect(call).toEqual(expect.objectContaining({ ended_reason: 'assistant_ended' }));
    expect(call.tool_calls).toEqual([
      expect.objectContaining({ tool_id: invoiceTool, name: 'check_invoice', ok: true }),
    ]);
    expect(await lines(id)).toEqual([
      'customer: I have a billing question.',
      'assistant: [tool assistant_transfer] {"ok":true,"handed_over_to":"Billing"}',
      'assistant: Connecting you to billing, Ann.',
      'assistant: Billing here, Ann.',
      'customer: Is invoice F-12 paid?',
      'assistant: [tool check_invoice] {"paid":true}',
      'assistant: Invoice F-12 is paid.',
      'customer: Thanks, bye.',
      'assistant: [tool end_call] {"ok":true,"message":"The call ends after this answer."}',
      'assistant: Goodbye!',
    ]);
  });

  it('assistant_transfer to an assistant the call does not carry (deleted since) is refused to the model; the same assistant carries on', async () => {
    const gone = await createAssistant(t, owner, { name: 'Gone' });
    const desk = await createAssistant(t, owner, {
      name: 'Desk',
      system_prompt: 'You are the desk.',
      tools: [{ type: 'assistant_transfer', assistant_id: gone, speak_transfer_greeting: false }],
    });
    expect((await t.http.delete(`/api/user/assistant/${gone}`).set(owner.auth)).status).toBe(200);
    const id = await makeCall(t, owner, desk);

    model.answer(calls('assistant_transfer'), says('I will help you myself.'));
    const res = await say(id, 'Put me through to Gone.');
    expect(res.body).toEqual(
      expect.objectContaining({
        reply: 'I will help you myself.',
        tool_calls: [{ name: 'assistant_transfer', ok: false, status_code: null }],
        ended: false,
      }),
    );
    expect(JSON.parse(sent(1).messages.at(-1).content)).toEqual({
      error: 'not_available',
      message: 'That colleague is not available; continue the conversation yourself.',
    });

    model.answer(says('Still the desk.'));
    await say(id, 'Hello?').expect(200);
    expect(sent(2).messages[0].content).toMatch(/^You are the desk\./);
  });

  it("collect_keypad: the customer's next line is the keys (up to the stop key); words in it are heard too", async () => {
    const assistant = await createAssistant(t, owner, {
      tools: [{ type: 'collect_keypad', stop_key: '*', timeout: 9 }],
    });
    const id = await makeCall(t, owner, assistant);

    model.answer(calls('collect_keypad', {}, 'Please type your account number, then star.'));
    const asked = await say(id, 'What is my balance?');
    expect(asked.body).toEqual(
      expect.objectContaining({
        reply: 'Please type your account number, then star.',
        tool_calls: [{ name: 'collect_keypad', ok: true, status_code: null }],
      }),
    );
    expect(model.requests).toHaveLength(1); // the keys are awaited, not invented

    model.answer(says('Account 4711 has 10 euros.'));
    const typed = await say(id, '47 11*');
    expect(typed.body).toEqual(expect.objectContaining({ reply: 'Account 4711 has 10 euros.', tool_calls: [] }));
    expect(sent(1).messages.slice(1).map(spoken)).toEqual([
      'user: What is my balance?',
      'assistant: Please type your account number, then star.',
      'assistant: null',
      'tool: {"digits":"4711"}',
    ]);
    expect(sent(1).messages.at(-2).tool_calls).toEqual([
      expect.objectContaining({ function: { name: 'collect_keypad', arguments: '{}' } }),
    ]);

    // Collected once: the next line is speech again, and the model still reads the keys it got.
    model.answer(calls('collect_keypad', {}, 'And your PIN?'), says('No problem.'));
    await say(id, 'Thanks.').expect(200);
    expect(sent(2).messages.slice(1).map(spoken)).toEqual([
      'user: What is my balance?',
      'assistant: Please type your account number, then star.',
      'assistant: null',
      'tool: {"digits":"4711"}',
      'assistant: Account 4711 has 10 euros.',
      'user: Thanks.',
    ]);
    await say(id, 'I do not have one.').expect(200);
    expect(sent(3).messages.slice(-3).map(spoken)).toEqual([
      'assistant: null',
      'tool: {"digits":null,"message":"The customer typed nothing."}',
      'user: I do not have one.',
    ]);
    expect((await lines(id)).slice(0, 6)).toEqual([
      'customer: What is my balance?',
      'assistant: [tool collect_keypad] {"ok":true,"awaiting_keys":true,"message":"Waiting for the customer to type the digits, ended by *."}',
      'assistant: Please type your account number, then star.',
      'customer: 47 11*',
      'assistant: [tool collect_keypad] {"digits":"4711"}',
      'assistant: Account 4711 has 10 euros.',
    ]);
  });

  it('calendar_integration: no scheduling provider is connected, so the model is told it cannot book and the call goes on', async () => {
    const eventType = (
      await t.http
        .post(`/api/admin/users/${owner.id}/event-types`)
        .set(t.admin)
        .send({ name: '30-minute call', duration_minutes: 30 })
    ).body.data.id;
    const assistant = await createAssistant(t, owner, {
      tools: [{ type: 'calendar_integration', event_type_id: eventType }],
    });
    const id = await makeCall(t, owner, assistant);
    model.answer(
      calls('calendar_integration', { start_time: '2026-12-01T10:00:00+01:00', name: 'Ann' }),
      says('Sorry, I cannot book that here.'),
    );
    const res = await say(id, 'Book me for Tuesday at 10.');
    expect(res.body).toEqual(
      expect.objectContaining({
        reply: 'Sorry, I cannot book that here.',
        tool_calls: [{ name: 'calendar_integration', ok: false, status_code: null }],
        ended: false,
        call: { id, status: 'in-progress' },
      }),
    );
    expect(JSON.parse(sent(1).messages.at(-1).content)).toEqual(expect.objectContaining({ error: 'not_available' }));
  });

  it("do_not_call: the customer's number joins the account's do-not-call list and the call goes on", async () => {
    const desk = await createAssistant(t, owner, { name: 'Sales', tools: [{ type: 'do_not_call' }] });
    const id = await makeCall(t, owner, desk, '+14155559876');

    model.answer(calls('do_not_call'), says('Understood, we will not call you again.'));
    const res = await say(id, 'Please never call me again.');
    expect(res.body).toEqual(
      expect.objectContaining({
        reply: 'Understood, we will not call you again.',
        tool_calls: [{ name: 'do_not_call', ok: true, status_code: null }],
        ended: false,
        call: { id, status: 'in-progress' },
      }),
    );
    expect(toolNames(sent(0))).toEqual(['do_not_call']);
    const listed = await t.http.get('/api/user/do-not-call?phone_number=%2B14155559876').set(owner.auth);
    expect(listed.body.data).toEqual([
      expect.objectContaining({ phone_number: '+14155559876', reason: 'asked not to be called' }),
    ]);
    const again = await t.http
      .post('/api/user/make_call')
      .set(owner.auth)
      .send({ assistant_id: desk, phone_number: '+14155559876' });
    expect(again.body).toEqual({ message: 'The phone number is on the do-not-call list.' });
  });
});
