/**
 * @jest-environment ./tools/voice-agent/jest-environment.js
 */
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { initializeLogger } from '@livekit/agents';
import { createTestApi, eventually, TestApi, TestUser } from '@voiceplane/test-env';
import { WebhookReceiver } from '../../../tools/fault/webhook-receiver';
import { createAssistant, getCall, makeCall } from '../../../tools/calls/fixtures';
import { loopCall, resetProviders, standInEnv, startProviders, stopProviders, type LoopCall, type Providers } from '../../../tools/voice-agent/loop-call';
import { ControlPlane } from './control-plane';

/**
 * Calls heard on this machine: the agent's own call code with real audio frames in real time
 * through the real Silero VAD and the real Deepgram, ElevenLabs, Cartesia and OpenAI plugins,
 * each against its stand-in on 127.0.0.1; the control plane is the composed app over its runtime
 * routes. Settings are short so the suite stays fast; every wait is for an event.
 */

let t: TestApi;
let server: Server;
let controlPlane: ControlPlane;
let providers: Providers;
let receiver: WebhookReceiver;
let owner: TestUser;
const calls: LoopCall[] = [];

beforeAll(async () => {
  initializeLogger({ pretty: false, level: process.env.LOOP_LOG ?? 'silent' });
  t = await createTestApi({ startBackground: false });
  server = createServer(t.runtime.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  controlPlane = new ControlPlane(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, t.runtime.runtimeToken, { attempts: 2, firstDelayMs: 10, timeoutMs: 5000 });
  providers = await startProviders();
  receiver = await WebhookReceiver.start(() => ({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"status":"shipped"}' }));
  owner = await t.createUser();
});
afterAll(async () => {
  for (const c of calls) await c.close();
  await stopProviders(providers);
  await receiver.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});
beforeEach(() => resetProviders(providers));

/** Short turn taking so a test does not wait out the defaults. */
const QUICK = { endpoint_sensitivity: 3, interrupt_sensitivity: 3 };

async function answered(fields: Record<string, unknown>, options: { dead?: boolean } = {}) {
  const assistant = await createAssistant(t, owner, { ...QUICK, ...fields });
  const callId = await makeCall(t, owner, assistant);
  const call = await loopCall({ callId, controlPlane, env: standInEnv(providers), dead: options.dead, retries: { llmConnOptions: { maxRetry: 0 }, sttConnOptions: { maxRetry: 1, retryIntervalMs: 100 }, ttsConnOptions: { maxRetry: 1, retryIntervalMs: 100 } } });
  calls.push(call);
  if (!call.held.ok) throw new Error(call.held.problems.join('; '));
  const answeredAt = Date.now();
  await call.held.hold.customerAnswered();
  return { ...call, hold: call.held.hold, session: call.held.session, callId, answeredAt };
}

const items = async (callId: number) => (await getCall(t, owner, callId)).transcript_items as { role: string; content: string }[];

describe('the voice agent in the audio loop', () => {
  it('greets, hears the customer, runs a mid-call tool through the gateway, answers aloud and ends with end_call', async () => {
    const tool = (await t.http.post('/api/user/tools').set(owner.auth).send({
      name: 'check_order', description: 'Look up an order', method: 'GET', endpoint: receiver.url('/orders/{order_id}'),
      schema: [{ name: 'order_id', type: 'string', description: 'The order number', required: true }],
    })).body.data.id;
    providers.deepgram.transcripts = ['Where is my order A-1001?', 'Thanks, bye!'];
    providers.openai.play({ toolCalls: [{ name: 'check_order', arguments: { order_id: 'A-1001' } }] }, { text: 'Your order has shipped.' }, { toolCalls: [{ name: 'end_call', arguments: {} }] });
    const { callId, customer, ear, hold, line, answeredAt } = await answered({
      initial_message: 'Hello, this is Acme.', tool_ids: [tool], tools: [{ type: 'end_call', description: 'Hang up when done' }],
    });

    await eventually(async () => ear.heard.length > 0, 'the greeting is heard');
    const greeting = ear.heard[0].at - answeredAt;
    expect(greeting).toBeGreaterThanOrEqual(0);
    await eventually(async () => ear.segments.length > 0 && ear.segments.every((s) => s.finished), 'the greeting played out');

    const question = await customer.say('where-is-my-order');
    await eventually(async () => ear.firstHeardAfter(question.endedAt) !== null, 'the reply is heard');
    expect(receiver.received.map((r) => r.path)).toEqual(['/orders/A-1001']);
    expect(providers.openai.requests[1].messages.at(-1)).toEqual(expect.objectContaining({ role: 'tool', content: '{"status":"shipped"}' }));
    await eventually(async () => ear.segments.every((s) => s.finished) && ear.segments.length >= 2, 'the reply played out');

    await customer.say('thanks-bye');
    expect(await hold.ended).toEqual({ status: 'completed', reason: 'assistant_ended' });
    expect(line.actions).toEqual(['hang_up']);
    const call = await getCall(t, owner, callId);
    expect(call).toEqual(expect.objectContaining({ status: 'completed', ended_reason: 'assistant_ended' }));
    expect((await items(callId)).map((i) => `${i.role}: ${i.content}`)).toEqual([
      'assistant: Hello, this is Acme.', 'customer: Where is my order A-1001?', 'assistant: Your order has shipped.', 'customer: Thanks, bye!',
    ]);
  });
});
