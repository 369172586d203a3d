import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { initializeLogger, voice } from '@livekit/agents';
import { composeInstructions } from '@voiceplane/application';
import { createTestApi, eventually, TestApi, TestUser } from '@voiceplane/test-env';
import { OpenAiStreamStub } from '@voiceplane/stand-ins/voice-agent/openai-stream-stub';
import { createAssistant, getCall, makeCall } from '@voiceplane/stand-ins/calls/fixtures';
import type { CallLine } from './call-hold';
import { holdCall } from './call-job';
import { ControlPlane } from './control-plane';

/**
 * The agent reading its assistant's knowledge base, in LiveKit Agents' text mode: the real OpenAI
 * plugin against the scripted stub, the real control plane (composed app on 127.0.0.1, workers on,
 * so the documents get indexed) reached through the runtime routes only.
 */

let t: TestApi;
let server: Server;
let controlPlane: ControlPlane;
let model: OpenAiStreamStub;
let owner: TestUser;
let kb: number;
const docs: Record<string, number> = {};
const sessions: voice.AgentSession[] = [];
const REFUNDS = 'Refunds are paid within 14 days of the return.';
const HOURS = 'The shop opens at 9 on weekdays.';
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
const line: CallLine = {
  hangUp: async () => undefined,
  transfer: async () => undefined,
  sendDtmf: async () => undefined,
  collectDigits: async () => '',
};

beforeAll(async () => {
  initializeLogger({ pretty: false, level: 'silent' });
  t = await createTestApi();
  server = createServer(t.runtime.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  controlPlane = new ControlPlane(
    `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    t.runtime.runtimeToken,
    { attempts: 2, firstDelayMs: 10, timeoutMs: 5000 },
  );
  model = await OpenAiStreamStub.start();
  owner = await t.createUser();
  kb = (await t.http.post('/api/user/knowledgebases').set(owner.auth).send({ name: 'Shop' })).body.data.id;
  for (const [name, content] of [
    ['Refunds', REFUNDS],
    ['Hours', HOURS],
  ]) {
    docs[name] = (
      await t.http
        .post(`/api/user/knowledgebases/${kb}/documents`)
        .set(owner.auth)
        .send({ name, type: 'text', content })
    ).body.data.id;
    const id = docs[name];
    await eventually(
      async () =>
        (await t.http.get(`/api/user/knowledgebases/${kb}/documents/${id}`).set(owner.auth)).body.data.status ===
        'ready',
      `document ${name} ready`,
    );
  }
});
afterAll(async () => {
  for (const s of sessions) await s.close();
  await model.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});
beforeEach(() => model.reset());

async function answeredCall(mode: 'prompt' | 'function_call') {
  const assistant = await createAssistant(t, owner, {
    knowledgebase_id: kb,
    knowledgebase_mode: mode,
    system_prompt: 'You help shoppers.',
  });
  const callId = await makeCall(t, owner, assistant);
  const config = await controlPlane.callConfig(callId);
  const held = await holdCall({
    callId,
    config,
    env: {
      keys: { deepgram: 'dg', elevenlabs: 'el', cartesia: 'ca', openai: 'sk-test' },
      openaiBaseUrl: model.baseUrl,
    },
    controlPlane,
    line,
    clock: { now: () => new Date() },
    log: silent,
    start: (session, agent) => session.start({ agent }),
    textOnly: true,
    llmConnOptions: { maxRetry: 0 },
  });
  if (!held.ok) throw new Error(held.problems.join('; '));
  sessions.push(held.session);
  await held.hold.customerAnswered();
  return { callId, config, session: held.session };
}

const searches = async (callId: number) =>
  ((await getCall(t, owner, callId)).tool_calls as Record<string, unknown>[]).filter(
    (c) => c.name === 'search_knowledge_base',
  );

describe("the voice agent reads its assistant's knowledge base", () => {
  it("prompt mode: the passages for the customer's latest line join the instructions of that turn, and the call logs the search", async () => {
    const { callId, config, session } = await answeredCall('prompt');
    model.play({ text: 'Refunds take up to 14 days.' });
    await session.run({ userInput: 'How long until I get my refund?' }).wait();
    const [request] = model.requests;
    const instructions = request.messages[0].content as string;
    expect(
      instructions.startsWith(composeInstructions(config, new Date()).split('\n\nThe current local time')[0]),
    ).toBe(true);
    expect(instructions).toContain(`# Knowledge base`);
    expect(instructions).toContain(`[1] (Refunds) ${REFUNDS}`);
    expect(instructions).not.toContain(HOURS);
    expect(request.tools ?? []).toEqual([]);

    model.play({ text: 'From 9.' });
    await session.run({ userInput: 'When does the shop open on weekdays?' }).wait();
    expect(model.requests[1].messages[0].content).toContain(`(Hours) ${HOURS}`);
    expect(model.requests[1].messages[0].content).not.toContain(REFUNDS);
    expect(await searches(callId)).toEqual([
      expect.objectContaining({
        tool_id: null,
        knowledgebase_id: kb,
        knowledgebase_mode: 'prompt',
        query: 'How long until I get my refund?',
        passages: [{ rank: 1, document_id: docs.Refunds, document: 'Refunds', position: 1, score: expect.any(Number) }],
      }),
      expect.objectContaining({
        knowledgebase_mode: 'prompt',
        query: 'When does the shop open on weekdays?',
        passages: [expect.objectContaining({ document_id: docs.Hours })],
      }),
    ]);
  });

  it('function_call mode: the model gets search_knowledge_base, reads the passages back, and the call logs the search', async () => {
    const { callId, session } = await answeredCall('function_call');
    model.play(
      { toolCalls: [{ name: 'search_knowledge_base', arguments: { query: 'when does the shop open' } }] },
      { text: 'We open at 9 on weekdays.' },
    );
    const run = await session.run({ userInput: 'When are you open?' }).wait();
    expect(run.events.map((e) => e.type)).toEqual(['function_call', 'function_call_output', 'message']);
    const [first, followUp] = model.requests;
    expect(first.tools?.map((x) => x.function.name)).toContain('search_knowledge_base');
    expect(first.messages[0].content).not.toContain('# Knowledge base');
    expect(followUp.messages.at(-1)).toEqual(
      expect.objectContaining({
        role: 'tool',
        content: JSON.stringify({ passages: [{ document: 'Hours', content: HOURS }] }),
      }),
    );
    expect(await searches(callId)).toEqual([
      expect.objectContaining({
        knowledgebase_mode: 'function_call',
        query: 'when does the shop open',
        passages: [expect.objectContaining({ rank: 1, document_id: docs.Hours, document: 'Hours' })],
      }),
    ]);
  });
});
