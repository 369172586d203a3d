import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';
import { createAssistant, getCall, makeCall } from '@voiceplane/stand-ins/calls/fixtures';

/**
 * A call's transcript keeps its first 2,000 lines: lines the runtime reports past them are dropped,
 * and a sandbox `say` on a full transcript is refused, so no request replays, rewrites or sends
 * to the model a transcript that grew without end.
 */
let t: TestApi;
let owner: TestUser;
let assistant: number;
let eventCounter = 0;

beforeAll(async () => {
  t = await createTestApi({ startBackground: false });
  owner = await t.createUser();
  assistant = await createAssistant(t, owner);
});
afterAll(async () => t.close());

const newEvent = (callId: number, type: string, extra: Record<string, unknown> = {}) => {
  eventCounter += 1;
  return t.http
    .post(`/api/runtime/calls/${callId}/events`)
    .set(t.runtimeAuth)
    .send({ event_id: `cap-${eventCounter}`, type, ...extra });
};
const lines = (n: number, prefix: string) =>
  Array.from({ length: n }, (_, i) => ({ role: i % 2 ? 'customer' : 'assistant', content: `${prefix} ${i}` }));

it('keeps the first 2,000 lines of a transcript and refuses a say on a full one', async () => {
  const id = await makeCall(t, owner, assistant);
  expect((await newEvent(id, 'answered')).status).toBe(200);
  expect((await newEvent(id, 'transcript', { data: { items: lines(1_998, 'early') } })).status).toBe(200);
  const over = await newEvent(id, 'transcript', { data: { items: lines(5, 'late') } });
  expect(over.body).toEqual({ ok: true, call: { id, status: 'in-progress' } });
  const transcript = ((await getCall(t, owner, id)).transcript as string).split('\n');
  expect(transcript).toHaveLength(2_000);
  expect(transcript.slice(-3)).toEqual(['Customer: early 1997', 'AI: late 0', 'Customer: late 1']);

  const say = await t.http.post(`/api/sandbox/calls/${id}/say`).set(owner.auth).send({ text: 'Are you still there?' });
  expect(say.status).toBe(409);
  expect(say.body).toEqual({ message: "The call's transcript is full (2,000 lines); end the call and start another." });
  expect(((await getCall(t, owner, id)).transcript as string).split('\n')).toHaveLength(2_000);
});
