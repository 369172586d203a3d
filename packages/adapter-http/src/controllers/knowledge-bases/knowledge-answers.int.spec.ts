import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';
import { RecordingStub, StubAnswer } from '../../../../../tools/stubs/recording-stub';
import { createAssistant, makeCall } from '../../../../../tools/calls/fixtures';

/**
 * S15 sandbox text calls answering from a document, through the composed app and a scripted
 * OpenAI-compatible server on 127.0.0.1: the document is processed by the workers first.
 */

let t: TestApi;
let model: RecordingStub;
let owner: TestUser;
let kb: number;

const completion = (message: Record<string, unknown>): StubAnswer => ({
  status: 200, body: { id: 'chatcmpl-1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: null, ...message }, finish_reason: 'stop' }] },
});
const says = (content: string) => completion({ content });
const sent = (i: number) => JSON.parse(model.requests[i].body);
const REFUNDS = 'Refunds are paid within 14 days of the return.';
const HOURS = 'The shop opens at 9 on weekdays.';

beforeAll(async () => {
  model = await RecordingStub.start({ status: 500, body: { error: { message: 'nothing scripted' } } });
  t = await createTestApi({ env: { REPLY_GENERATOR: 'openai', OPENAI_API_KEY: 'sk-test-kb', OPENAI_BASE_URL: `${model.baseUrl}v1` } });
  owner = await t.createUser();
  kb = (await t.http.post('/api/user/knowledgebases').set(owner.auth).send({ name: 'Shop' })).body.data.id;
  for (const [name, content] of [['Refunds', REFUNDS], ['Hours', HOURS]]) {
    const doc = (await t.http.post(`/api/user/knowledgebases/${kb}/documents`).set(owner.auth).send({ name, type: 'text', content })).body.data.id;
    for (let i = 0; i < 100; i++) {
      const res = await t.http.get(`/api/user/knowledgebases/${kb}/documents/${doc}`).set(owner.auth);
      if (res.body.data.status === 'ready') break;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
});
afterAll(async () => {
  await t.close();
  await model.close();
});
beforeEach(() => model.reset());

const say = (callId: number, text: string) => t.http.post(`/api/sandbox/calls/${callId}/say`).set(owner.auth).send({ text });

describe('S15: the assistant answers from its knowledge base', () => {
  it('prompt mode: the passage for the customer\'s line is in the instructions, and the call shows the search', async () => {
    const assistant = await createAssistant(t, owner, { knowledgebase_id: kb, knowledgebase_mode: 'prompt' });
    const id = await makeCall(t, owner, assistant);
    model.answer(says('Refunds take up to 14 days.'));
    const res = await say(id, 'How long until I get my refund?');
    expect(res.body).toMatchObject({ ok: true, reply: 'Refunds take up to 14 days.', tool_calls: [{ name: 'search_knowledge_base', ok: true, status_code: null }] });
    const system = sent(0).messages[0].content as string;
    expect(system).toContain(`[1] (Refunds) ${REFUNDS}`);
    expect(system).not.toContain(HOURS);
    expect(sent(0).tools ?? []).toEqual([]);
  });

  it('function_call mode: the model searches with search_knowledge_base and reads the passages back', async () => {
    const assistant = await createAssistant(t, owner, { knowledgebase_id: kb, knowledgebase_mode: 'function_call' });
    const id = await makeCall(t, owner, assistant);
    model.answer(
      completion({ tool_calls: [{ id: 'k1', type: 'function', function: { name: 'search_knowledge_base', arguments: '{"query":"when does the shop open"}' } }] }),
      says('We open at 9 on weekdays.'),
    );
    const res = await say(id, 'When are you open?');
    expect(res.body).toMatchObject({ ok: true, reply: 'We open at 9 on weekdays.' });
    expect(sent(0).tools.map((f: { function: { name: string } }) => f.function.name)).toEqual(['search_knowledge_base']);
    expect(sent(0).messages[0].content).not.toContain('# Knowledge base');
    expect(sent(1).messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'k1', content: JSON.stringify({ passages: [{ document: 'Hours', content: HOURS }] }) });
  });
});
