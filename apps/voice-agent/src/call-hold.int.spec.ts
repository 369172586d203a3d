import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { initializeLogger, voice } from '@livekit/agents';
import { BUILT_IN_REFUSALS, composeInstructions, toolFunctions } from '@voiceplane/application';
import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';
import { OpenAiStreamStub } from '@voiceplane/stand-ins/voice-agent/openai-stream-stub';
import { WebhookReceiver } from '@voiceplane/stand-ins/fault/webhook-receiver';
import { createAssistant, getCall, ISO, makeCall } from '@voiceplane/stand-ins/calls/fixtures';
import type { CallLine } from './call-hold';
import { holdCall } from './call-job';
import { ControlPlane } from './control-plane';

/**
 * The agent's job logic in LiveKit Agents' text mode (`AgentSession.run({ userInput })`): the real
 * OpenAI plugin against a scripted Chat Completions stub, the real control plane (composed app on
 * 127.0.0.1) through the runtime routes only. No room: the line is a recorder.
 */

let t: TestApi;
let server: Server;
let controlPlane: ControlPlane;
let llm: OpenAiStreamStub;
let receiver: WebhookReceiver;
let owner: TestUser;
const sessions: voice.AgentSession[] = [];

const KEYS = { deepgram: 'dg-test', elevenlabs: 'el-test', cartesia: 'ca-test', openai: 'sk-test' };
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

beforeAll(async () => {
  initializeLogger({ pretty: false, level: 'silent' });
  t = await createTestApi({ startBackground: false });
  server = createServer(t.runtime.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  controlPlane = new ControlPlane(
    `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    t.runtime.runtimeToken,
    { attempts: 2, firstDelayMs: 10, timeoutMs: 5000 },
  );
  llm = await OpenAiStreamStub.start();
  receiver = await WebhookReceiver.start(() => ({
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: '{"status":"shipped","eta":"2026-12-01"}',
  }));
  owner = await t.createUser();
});
afterAll(async () => {
  for (const s of sessions) await s.close();
  await llm.close();
  await receiver.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});
beforeEach(() => llm.reset());

class RecordingLine implements CallLine {
  readonly actions: string[] = [];
  async hangUp() {
    this.actions.push('hang_up');
  }
  async transfer(to: string, brief: (() => Promise<void>) | null) {
    this.actions.push(`transfer ${to}${brief ? ' (warm)' : ''}`);
    if (brief) await brief();
  }
  async sendDtmf(digits: string) {
    this.actions.push(`dtmf ${digits}`);
  }
  async collectDigits(stopKey: string, timeoutS: number) {
    this.actions.push(`keypad ${stopKey} ${timeoutS}`);
    return '4711';
  }
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 100; i += 1) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function start(callId: number, keys: typeof KEYS | Record<keyof typeof KEYS, string | null> = KEYS) {
  const config = await controlPlane.callConfig(callId);
  const line = new RecordingLine();
  const held = await holdCall({
    callId,
    config,
    env: { keys, openaiBaseUrl: llm.baseUrl },
    controlPlane,
    line,
    clock: { now: () => new Date() },
    log: silent,
    start: (session, agent) => session.start({ agent }),
    textOnly: true,
    llmConnOptions: { maxRetry: 0 },
  });
  if (held.ok) sessions.push(held.session);
  return { config, line, held };
}

async function answeredCall(assistantFields: Record<string, unknown>, variables?: Record<string, unknown>) {
  const assistant = await createAssistant(t, owner, assistantFields);
  const callId = await makeCall(t, owner, assistant, '+14155551234', variables);
  const { config, line, held } = await start(callId);
  if (!held.ok) throw new Error(held.problems.join('; '));
  await held.hold.customerAnswered();
  return { assistant, callId, config, line, hold: held.hold, session: held.session };
}

const items = async (callId: number) =>
  (await getCall(t, owner, callId)).transcript_items as { role: string; content: string; at: string }[];

describe('voice agent job logic in text mode', () => {
  it("speaks with the policy's instructions and functions, runs a tool through the gateway, ends with end_call and reports it all", async () => {
    const tool = (
      await t.http
        .post('/api/user/tools')
        .set(owner.auth)
        .send({
          name: 'check_order',
          description: 'Look up an order',
          method: 'GET',
          endpoint: receiver.url('/orders/{order_id}'),
          schema: [{ name: 'order_id', type: 'string', description: 'The order number', required: true }],
        })
    ).body.data.id;
    const { callId, config, session, hold, line } = await answeredCall(
      {
        system_prompt: 'You work for {{company}}. The customer is {{customer_name}}.',
        variables: { company: 'Acme' },
        timezone: 'Europe/Berlin',
        initial_message: 'Hello {{customer_name}}!',
        tool_ids: [tool],
        tools: [{ type: 'end_call', description: 'Hang up when done' }],
      },
      { customer_name: 'Ann' },
    );
    expect(await getCall(t, owner, callId)).toEqual(
      expect.objectContaining({ status: 'in-progress', answered_at: expect.stringMatching(ISO) }),
    );
    await until(async () => (await items(callId)).length === 1, 'the greeting');

    llm.play(
      { toolCalls: [{ name: 'check_order', arguments: { order_id: 'A-1001' } }] },
      { text: 'Your order has shipped.' },
    );
    const asked = new Date();
    const first = await session.run({ userInput: 'Where is my order A-1001?' }).wait();
    expect(first.events.map((e) => e.type)).toEqual(['function_call', 'function_call_output', 'message']);

    const [request, followUp] = llm.requests;
    expect(request).toEqual(expect.objectContaining({ model: 'gpt-4o-mini', temperature: 0.1 }));
    // The instructions name the minute the model was asked in; a minute may turn over during the turn.
    expect(request.messages[0].role).toBe('system');
    expect([composeInstructions(config, asked), composeInstructions(config, new Date())]).toContain(
      request.messages[0].content,
    );
    expect(request.messages[0].content).toMatch(
      /^You work for Acme\. The customer is Ann\.\n\nSpeak English \(en\)\.\n\nThe current local time is .* \(Europe\/Berlin, UTC\+01:00\)\.$/,
    );
    expect(request.tools?.map((x) => x.function)).toEqual(
      toolFunctions(config).map((f) => expect.objectContaining({ name: f.name, description: f.description })),
    );
    expect(request.tools?.[0].function.parameters).toEqual(
      expect.objectContaining({
        properties: { order_id: { type: 'string', description: 'The order number' } },
        required: ['order_id'],
      }),
    );
    expect(receiver.received.map((r) => r.path)).toEqual(['/orders/A-1001']);
    expect(followUp.messages.at(-1)).toEqual(
      expect.objectContaining({ role: 'tool', content: '{"status":"shipped","eta":"2026-12-01"}' }),
    );

    llm.play({ toolCalls: [{ name: 'end_call', arguments: {} }] });
    await session.run({ userInput: 'Thanks, bye!' }).wait();
    expect(await hold.ended).toEqual({ status: 'completed', reason: 'assistant_ended' });
    expect(line.actions).toEqual(['hang_up']);
    expect(llm.requests).toHaveLength(3); // end_call stops the turn: no reply after it

    const call = await getCall(t, owner, callId);
    expect(call).toEqual(
      expect.objectContaining({ status: 'completed', ended_reason: 'assistant_ended', duration: expect.any(Number) }),
    );
    expect(call.transcript_items).toEqual([
      { role: 'assistant', content: 'Hello Ann!', at: expect.stringMatching(ISO) },
      { role: 'customer', content: 'Where is my order A-1001?', at: expect.stringMatching(ISO) },
      { role: 'assistant', content: 'Your order has shipped.', at: expect.stringMatching(ISO) },
      { role: 'customer', content: 'Thanks, bye!', at: expect.stringMatching(ISO) },
    ]);
    expect(call.tool_calls).toEqual([expect.objectContaining({ tool_id: tool, name: 'check_order', ok: true })]);
    // Stable event ids: the same reports again are duplicates and change nothing.
    const again = await t.http
      .post(`/api/runtime/calls/${callId}/events`)
      .set(t.runtimeAuth)
      .send({ event_id: 'agent-transcript-1', type: 'transcript', data: { items: [] } });
    expect(again.body).toEqual(expect.objectContaining({ duplicate: true }));
  });

  it('waits for the customer when asked to, and runs the keypad and DTMF built-ins on the line', async () => {
    const { callId, session, line } = await answeredCall({
      initial_message: 'Hello!',
      wait_for_customer: true,
      tools: [{ type: 'dtmf_input' }, { type: 'collect_keypad', timeout: 7, stop_key: '*' }],
    });
    llm.play(
      {
        toolCalls: [
          { name: 'collect_keypad', arguments: {} },
          { name: 'dtmf_input', arguments: { digits: '12#' } },
        ],
      },
      { text: 'Thanks, I have your number.' },
    );
    await session.run({ userInput: 'I will type my customer number.' }).wait();
    // The model asked for both at once: they may run in either order.
    expect([...line.actions].sort()).toEqual(['dtmf 12#', 'keypad * 7']);
    const outputs = llm.requests[1].messages.filter((m) => m.role === 'tool').map((m) => m.content as string);
    expect(outputs.sort()).toEqual(['{"digits":"4711"}', '{"pressed":"12#"}']);
    await until(async () => (await items(callId)).length === 2, 'the transcript');
    expect((await items(callId)).map((i) => i.role)).toEqual(['customer', 'assistant']); // no greeting before the customer spoke
  });

  it('transfers to a phone number (warm: the briefing is said first) and ends the call transferred', async () => {
    const { session, hold, line } = await answeredCall({
      tools: [
        {
          type: 'call_transfer',
          phone_number: '+14155550199',
          warm_transfer: true,
          warm_transfer_message: 'A customer about billing.',
        },
      ],
    });
    llm.play({ toolCalls: [{ name: 'call_transfer', arguments: {} }] });
    await session.run({ userInput: 'Let me talk to a person.' }).wait();
    expect(await hold.ended).toEqual({ status: 'completed', reason: 'transferred' });
    expect(line.actions).toEqual(['transfer +14155550199 (warm)', 'hang_up']);
  });

  it('hands the call to another assistant: its instructions, variables and tools take over the same call', async () => {
    const billing = await createAssistant(t, owner, {
      name: 'Billing',
      system_prompt: 'You are {{team}} for {{customer_name}}.',
      variables: { team: 'billing' },
      initial_message: 'Billing here, {{customer_name}}.',
      tools: [{ type: 'end_call' }],
    });
    const { callId, config, session } = await answeredCall(
      {
        system_prompt: 'You are the front desk.',
        tools: [
          { type: 'assistant_transfer', assistant_id: billing, message_before_transfer: 'Connecting you to billing.' },
        ],
      },
      { customer_name: 'Ann' },
    );
    expect(config.transfer_assistants?.map((a) => a.assistant.id)).toEqual([billing]);

    llm.play({ toolCalls: [{ name: 'assistant_transfer', arguments: {} }] });
    await session.run({ userInput: 'I have a billing question.' }).wait();
    await until(
      async () => (await items(callId)).some((i) => i.content === 'Billing here, Ann.'),
      'the greeting of the new assistant',
    );
    llm.play({ text: 'Your invoice is paid.' });
    await session.run({ userInput: 'Is my invoice paid?' }).wait();
    const last = llm.requests.at(-1)!;
    expect(last.messages[0].content).toMatch(/^You are billing for Ann\./);
    expect(last.tools?.map((x) => x.function.name)).toEqual(['end_call']);
    // The new assistant reads the conversation so far (spoken lines), not the front desk's instructions or functions.
    expect(last.messages.slice(1).map((m) => `${m.role}: ${m.content}`)).toEqual([
      'user: I have a billing question.',
      'assistant: Connecting you to billing.',
      'assistant: Billing here, Ann.',
      'user: Is my invoice paid?',
    ]);
    await until(async () => (await items(callId)).length === 5, 'the transcript');
    expect((await items(callId)).map((i) => `${i.role}: ${i.content}`)).toEqual([
      'customer: I have a billing question.',
      'assistant: Connecting you to billing.',
      'assistant: Billing here, Ann.',
      'customer: Is my invoice paid?',
      'assistant: Your invoice is paid.',
    ]);
  });

  it('refuses a hand-over to an assistant the call does not carry and a booking, with the same answers as a text call', async () => {
    const gone = await createAssistant(t, owner, { name: 'Gone' });
    const eventType = (
      await t.http
        .post(`/api/admin/users/${owner.id}/event-types`)
        .set(t.admin)
        .send({ name: 'Intro', duration_minutes: 15 })
    ).body.data.id;
    const fields = {
      tools: [
        { type: 'assistant_transfer', assistant_id: gone },
        { type: 'calendar_integration', event_type_id: eventType },
      ],
    };
    const assistant = await createAssistant(t, owner, fields);
    expect((await t.http.delete(`/api/user/assistant/${gone}`).set(owner.auth)).status).toBe(200);
    const callId = await makeCall(t, owner, assistant);
    const { held } = await start(callId);
    if (!held.ok) throw new Error(held.problems.join('; '));
    await held.hold.customerAnswered();
    llm.play(
      {
        toolCalls: [
          { name: 'assistant_transfer', arguments: {} },
          { name: 'calendar_integration', arguments: { start_time: '2026-12-01T10:00:00Z', name: 'Ann' } },
        ],
      },
      { text: 'I will help you myself.' },
    );
    await held.session.run({ userInput: 'Book me with Gone.' }).wait();
    const outputs = llm.requests[1].messages
      .filter((m) => m.role === 'tool')
      .map((m) => JSON.parse(m.content as string));
    expect(outputs).toEqual(
      expect.arrayContaining([BUILT_IN_REFUSALS.noSuchColleague, BUILT_IN_REFUSALS.noScheduling]),
    );
    expect(outputs).toHaveLength(2);
  });

  it('ends a call it cannot run at once: failed, configuration_error, never a silent line', async () => {
    const assistant = await createAssistant(t, owner, {});
    const callId = await makeCall(t, owner, assistant);
    const { held, line } = await start(callId, { ...KEYS, elevenlabs: null });
    expect(held).toEqual({ ok: false, problems: ['the ElevenLabs voice needs ELEVEN_API_KEY'] });
    expect(line.actions).toEqual(['hang_up']);
    expect(await getCall(t, owner, callId)).toEqual(
      expect.objectContaining({ status: 'failed', ended_reason: 'configuration_error' }),
    );
  });

  it('apologises once when the model fails mid-call, then ends the call provider_error', async () => {
    const { callId, session, hold, line } = await answeredCall({});
    llm.play({ status: 500 });
    session
      .run({ userInput: 'Hello?' })
      .wait()
      .catch(() => undefined);
    expect(await hold.ended).toEqual({ status: 'failed', reason: 'provider_error' });
    expect(line.actions).toEqual(['hang_up']);
    const call = await getCall(t, owner, callId);
    expect(call).toEqual(expect.objectContaining({ status: 'failed', ended_reason: 'provider_error' }));
    expect(
      call.transcript_items
        .filter((i: { role: string }) => i.role === 'assistant')
        .map((i: { content: string }) => i.content),
    ).toEqual(['I am sorry, we are having a technical problem and have to end this call. Please try again later.']);
  });

  /** What LiveKit's agent activity does when a plugin gives up: the session's error event, then its own error handling. */
  function pluginFails(session: voice.AgentSession, type: 'stt_error' | 'tts_error'): void {
    const error = {
      type,
      timestamp: Date.now(),
      label: `test.${type}`,
      error: new Error('provider down'),
      recoverable: false,
    } as const;
    const failure = { ...error };
    session.emit(
      voice.AgentSessionEventTypes.Error,
      voice.createErrorEvent(failure, session.stt ?? session.tts ?? session.llm!),
    );
    session._onError(failure);
  }
  const assistantLines = (call: { transcript_items: { role: string; content: string }[] }) =>
    call.transcript_items.filter((i) => i.role === 'assistant').map((i) => i.content);

  it("apologises in the assistant's language when the transcriber fails, instead of LiveKit closing the line at once", async () => {
    const { callId, session, hold, line } = await answeredCall({ language_id: 5 });
    pluginFails(session, 'stt_error');
    expect(await hold.ended).toEqual({ status: 'failed', reason: 'provider_error' });
    expect(line.actions).toEqual(['hang_up']);
    const call = await getCall(t, owner, callId);
    expect(call).toEqual(expect.objectContaining({ status: 'failed', ended_reason: 'provider_error' }));
    expect(assistantLines(call)).toEqual([expect.stringMatching(/^Es tut mir leid/)]);
  });

  it('ends provider_error without an apology when the synthesizer itself failed', async () => {
    const { callId, session, hold } = await answeredCall({});
    pluginFails(session, 'tts_error');
    expect(await hold.ended).toEqual({ status: 'failed', reason: 'provider_error' });
    const call = await getCall(t, owner, callId);
    expect(call).toEqual(expect.objectContaining({ status: 'failed', ended_reason: 'provider_error' }));
    expect(assistantLines(call)).toEqual([]);
  });

  it('reports the recording address with the end of a recorded call; the call record keeps it', async () => {
    const recorded = await answeredCall({
      record: true,
      tools: [{ type: 'end_call', description: 'Hang up when done' }],
    });
    recorded.hold.recording(`https://vp.example.com/api/user/calls/${recorded.callId}/recording`);
    llm.play({ toolCalls: [{ name: 'end_call', arguments: {} }] });
    await recorded.session.run({ userInput: 'Bye!' }).wait();
    await recorded.hold.ended;
    expect(await getCall(t, owner, recorded.callId)).toEqual(
      expect.objectContaining({
        status: 'completed',
        recording_url: `https://vp.example.com/api/user/calls/${recorded.callId}/recording`,
      }),
    );
  });
});
