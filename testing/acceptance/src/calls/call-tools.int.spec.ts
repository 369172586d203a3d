import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';
import { verifyWithReference, WebhookReceiver } from '@voiceplane/stand-ins/fault/webhook-receiver';
import { createAssistant, getCall, ISO, makeCall, updateAssistant } from '@voiceplane/stand-ins/calls/fixtures';

/**
 * The mid-call tool gateway sees calls through the calls capability: the
 * runtime route end to end, and the call's `tool_calls`.
 */

let t: TestApi;
let receiver: WebhookReceiver;
let owner: TestUser;
let stranger: TestUser;
let tool: number;
let assistant: number;

beforeAll(async () => {
  t = await createTestApi({ startBackground: false });
  receiver = await WebhookReceiver.start(() => ({
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: '{"status":"shipped"}',
  }));
  owner = await t.createUser();
  stranger = await t.createUser();
  const created = await t.http
    .post('/api/user/tools')
    .set(owner.auth)
    .send({
      name: 'check_order',
      description: 'Look up an order',
      method: 'GET',
      endpoint: `${receiver.url('/orders/{order_id}')}?aid={{assistant_id}}&who={{customer_name}}&co={{company}}`,
      schema: [{ name: 'order_id', type: 'string', description: 'The order number', required: true }],
    });
  tool = created.body.data.id;
  assistant = await createAssistant(t, owner, { tool_ids: [tool], variables: { company: 'Acme' } });
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

const invoke = (body: Record<string, unknown>) => t.http.post('/api/runtime/tool-calls').set(t.runtimeAuth).send(body);

describe('POST /api/runtime/tool-calls', () => {
  it("runs an attached tool with the call's variables, once per invocation id, and records it on the call", async () => {
    const id = await makeCall(t, owner, assistant, '+14155551234', { customer_name: 'Ann Lee' });
    const res = await invoke({ call_id: id, tool_id: tool, params: { order_id: 'A-1001' }, invocation_id: 'inv-1' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: true,
      status_code: 200,
      content: '{"status":"shipped"}',
      truncated: false,
      duration_ms: expect.any(Number),
      error: null,
      warnings: [],
    });

    const [request, ...more] = receiver.received.filter((r) => r.path.startsWith('/orders/A-1001'));
    expect(more).toEqual([]);
    expect(request.path).toBe(`/orders/A-1001?aid=${assistant}&who=Ann%20Lee&co=Acme`);
    expect(request.headers['x-voiceplane-call-id']).toBe(String(id));
    expect(request.webhookId).toMatch(/^tcl_[0-9A-Za-z]{22}$/);
    const secret = (await t.http.get('/api/user/webhooks/signing-secret').set(owner.auth)).body.secret;
    expect(() => verifyWithReference(secret, request)).not.toThrow();

    const repeat = await invoke({ call_id: id, tool_id: tool, params: { order_id: 'A-1001' }, invocation_id: 'inv-1' });
    expect(repeat.body).toEqual(res.body);
    expect(receiver.received.filter((r) => r.path.startsWith('/orders/A-1001'))).toHaveLength(1);

    expect((await getCall(t, owner, id)).tool_calls).toEqual([
      {
        id: request.webhookId,
        tool_id: tool,
        name: 'check_order',
        ok: true,
        status_code: 200,
        duration_ms: res.body.duration_ms,
        error: null,
        at: expect.stringMatching(ISO),
      },
    ]);
  });

  it('uses the tools attached when the call started', async () => {
    const later = (
      await t.http
        .post('/api/user/tools')
        .set(owner.auth)
        .send({ name: 'later_tool', description: 'Added later', method: 'GET', endpoint: receiver.url('/later') })
    ).body.data.id;
    const id = await makeCall(t, owner, assistant);
    await updateAssistant(t, owner, assistant, { tool_ids: [tool, later] });
    const res = await invoke({ call_id: id, tool_id: later });
    expect([res.status, res.body]).toEqual([404, { message: 'Tool not found' }]);
    const next = await makeCall(t, owner, assistant);
    expect((await invoke({ call_id: next, tool_id: later })).status).toBe(200);
    await updateAssistant(t, owner, assistant, { tool_ids: [tool] });
  });

  it('404 for unknown calls and unattached tools; 409 once the call ended', async () => {
    expect((await invoke({ call_id: 999_999, tool_id: tool })).body).toEqual({ message: 'Call not found' });
    const foreignTool = (
      await t.http
        .post('/api/user/tools')
        .set(stranger.auth)
        .send({ name: 'x', description: 'Other account', method: 'GET', endpoint: receiver.url('/x') })
    ).body.data.id;
    const id = await makeCall(t, owner, assistant);
    expect((await invoke({ call_id: id, tool_id: foreignTool })).body).toEqual({ message: 'Tool not found' });
    await t.http.post(`/api/sandbox/calls/${id}/finish`).set(owner.auth).send({ status: 'completed', duration: 3 });
    const ended = await invoke({ call_id: id, tool_id: tool, params: { order_id: 'B-1' } });
    expect([ended.status, ended.body]).toEqual([409, { message: 'Call already ended.' }]);
  });
});

describe('render with a call', () => {
  it("takes system and call variables from an own call; another account's call is invalid", async () => {
    const id = await makeCall(t, owner, assistant, '+14155551234', { customer_name: 'Ann' });
    const res = await t.http
      .post(`/api/user/tools/${tool}/render`)
      .set(owner.auth)
      .send({ call_id: id, params: { order_id: 'A-7' } });
    expect(res.status).toBe(200);
    expect(res.body.data.url).toBe(`${receiver.url('/orders/A-7')}?aid=${assistant}&who=Ann&co=Acme`);
    const foreign = await t.http.post(`/api/user/tools/${tool}/render`).set(stranger.auth).send({ call_id: id });
    expect(foreign.status).toBe(404);
    const strangerTool = (
      await t.http
        .post('/api/user/tools')
        .set(stranger.auth)
        .send({ name: 'y', description: 'Other account', method: 'GET', endpoint: receiver.url('/y') })
    ).body.data.id;
    const withForeignCall = await t.http
      .post(`/api/user/tools/${strangerTool}/render`)
      .set(stranger.auth)
      .send({ call_id: id });
    expect([withForeignCall.status, withForeignCall.body]).toEqual([
      422,
      { message: 'The given data was invalid.', errors: { call_id: ['The selected call id is invalid.'] } },
    ]);
  });
});
