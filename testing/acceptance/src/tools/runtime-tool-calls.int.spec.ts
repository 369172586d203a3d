import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';
import { verifyWithReference, WebhookReceiver } from '@voiceplane/stand-ins/fault/webhook-receiver';
import { createAssistant, getCall, ISO, makeCall } from '@voiceplane/stand-ins/calls/fixtures';

/** `POST /api/runtime/tool-calls` on calls placed through the public API. */

let t: TestApi;
let receiver: WebhookReceiver;
let owner: TestUser;
let stranger: TestUser;
let toolId: number;
let assistantId: number;

beforeAll(async () => {
  t = await createTestApi({ startBackground: false });
  receiver = await WebhookReceiver.start();
  owner = await t.createUser();
  stranger = await t.createUser();
  const res = await t.http
    .post('/api/user/tools')
    .set(owner.auth)
    .send({
      name: 'check_order',
      description: 'Look up an order',
      method: 'POST',
      endpoint: `${receiver.url('/orders/{order_id}')}?c={{call_id}}&d={{direction}}&ch={{channel}}`,
      headers: [{ name: 'X-Customer', value: '{{customer_name}} / {{plan}} / {{company}}' }],
      static_fields: [
        { key: 'phone', value: '{{customer_phone}}' },
        { key: 'day', value: '{{current_date}}' },
        { key: 'tz', value: '{{timezone}}' },
      ],
      schema: [
        { name: 'order_id', type: 'string', description: 'The order number', required: true },
        { name: 'qty', type: 'number', description: 'How many' },
      ],
    });
  toolId = res.body.data.id;
  assistantId = await createAssistant(t, owner, {
    tool_ids: [toolId],
    timezone: 'Asia/Kolkata',
    variables: { plan: 'basic', company: 'Acme' },
  });
});
beforeEach(() => {
  receiver.received.length = 0;
  receiver.respondWith(() => ({
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: '{ "status": "shipped" }',
  }));
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

const invoke = (body: unknown) =>
  t.http
    .post('/api/runtime/tool-calls')
    .set(t.runtimeAuth)
    .send(body as object);
const call = (variables: Record<string, unknown> = { customer_name: 'Ann', plan: 'gold' }) =>
  makeCall(t, owner, assistantId, '+14155551234', variables);
const finish = (id: number) =>
  t.http.post(`/api/sandbox/calls/${id}/finish`).set(owner.auth).send({ status: 'completed', duration: 3 });

describe('POST /api/runtime/tool-calls', () => {
  it("sends the request with the call's variables, signed with the invocation id, and answers for the AI", async () => {
    const id = await call();
    const res = await invoke({
      call_id: id,
      tool_id: toolId,
      params: { order_id: 'A-1001', qty: '2', extra: 'dropped' },
    });
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

    expect(receiver.received).toHaveLength(1);
    const [sent] = receiver.received;
    expect(sent.path).toBe(`/orders/A-1001?c=${id}&d=outbound&ch=phone`);
    expect(JSON.parse(sent.body)).toEqual({
      qty: 2,
      phone: '+14155551234',
      day: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      tz: 'Asia/Kolkata',
    });
    expect(sent.headers).toMatchObject({
      'x-customer': 'Ann / gold / Acme',
      'x-voiceplane-call-id': String(id),
      'x-voiceplane-tool-id': String(toolId),
      'x-voiceplane-event': 'tool_call',
    });
    expect(sent.webhookId).toMatch(/^tcl_[0-9A-Za-z]{22}$/);
    const secret = (
      await t.db.dataSource.query(`SELECT secret FROM webhook_signing_secrets WHERE user_id = $1`, [owner.id])
    )[0].secret;
    expect(() => verifyWithReference(secret, sent)).not.toThrow();

    expect((await getCall(t, owner, id)).tool_calls).toEqual([
      {
        id: sent.webhookId,
        tool_id: toolId,
        name: 'check_order',
        ok: true,
        status_code: 200,
        duration_ms: res.body.duration_ms,
        error: null,
        at: expect.stringMatching(ISO),
      },
    ]);
  });

  it('records every invocation on the call, failures included, in order', async () => {
    const id = await call();
    receiver.respondWith(() => ({ status: 404, body: 'no such order' }));
    const missing = await invoke({ call_id: id, tool_id: toolId, params: { qty: 1 } });
    expect(missing.body).toEqual({
      ok: false,
      status_code: null,
      content: '{"error":"missing_params","missing":["order_id"]}',
      truncated: false,
      duration_ms: 0,
      error: 'missing_params',
      warnings: [],
    });
    const failed = await invoke({ call_id: id, tool_id: toolId, params: { order_id: 'B' } });
    expect(failed.body).toMatchObject({
      ok: false,
      status_code: 404,
      error: 'http_error',
      content: '{"error":"http_error","status":404,"body":"no such order"}',
    });
    const unknownVar = await invoke({ call_id: id, tool_id: toolId, params: { order_id: 'C' } });
    expect(receiver.received).toHaveLength(2);
    expect(unknownVar.body.warnings).toEqual([]);

    const toolCalls = (await getCall(t, owner, id)).tool_calls;
    expect(
      toolCalls.map((c: { ok: boolean; status_code: number | null; error: string | null }) => [
        c.ok,
        c.status_code,
        c.error,
      ]),
    ).toEqual([
      [false, null, 'missing_params'],
      [false, 404, 'http_error'],
      [false, 404, 'http_error'],
    ]);
  });

  it('warns about variables the call does not have', async () => {
    const id = await call({});
    const res = await invoke({ call_id: id, tool_id: toolId, params: { order_id: 'A' } });
    expect(res.body.warnings).toEqual(['Unknown variable "customer_name" was replaced by an empty string.']);
    // Leading whitespace is not part of a header value on the wire.
    expect(receiver.received[0].headers['x-customer']).toBe('/ basic / Acme');
  });

  it('returns the first result for a repeated invocation id without sending again', async () => {
    const id = await call();
    const first = await invoke({ call_id: id, tool_id: toolId, params: { order_id: 'A' }, invocation_id: 'inv-1' });
    receiver.respondWith(() => ({ status: 200, body: 'changed' }));
    const again = await invoke({ call_id: id, tool_id: toolId, params: { order_id: 'other' }, invocation_id: 'inv-1' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(receiver.received).toHaveLength(1);

    const other = await call();
    const elsewhere = await invoke({
      call_id: other,
      tool_id: toolId,
      params: { order_id: 'A' },
      invocation_id: 'inv-1',
    });
    expect(elsewhere.body.content).toBe('changed');
    expect((await getCall(t, owner, id)).tool_calls).toHaveLength(1);

    // After the call ends, a retry still gets its answer; anything new is refused.
    await finish(id);
    expect((await invoke({ call_id: id, tool_id: toolId, invocation_id: 'inv-1' })).body).toEqual(first.body);
    const late = await invoke({ call_id: id, tool_id: toolId, invocation_id: 'inv-2' });
    expect([late.status, late.body]).toEqual([409, { message: 'Call already ended.' }]);
  });

  it("makes concurrent repeats wait for the first one's answer", async () => {
    const id = await call();
    receiver.respondWith(() => ({ status: 200, body: '{"slow":true}', delayMs: 200 }));
    const results = await Promise.all(
      Array.from({ length: 4 }, () =>
        invoke({ call_id: id, tool_id: toolId, params: { order_id: 'A' }, invocation_id: 'same' }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(results.map((r) => JSON.stringify(r.body))).size).toBe(1);
    expect(results[0].body.content).toBe('{"slow":true}');
    expect(receiver.received).toHaveLength(1);
  });

  it('runs again an invocation whose first attempt never finished', async () => {
    const id = await call();
    await t.db.dataSource.query(
      `INSERT INTO tool_invocations (id, call_id, user_id, tool_id, name, invocation_id, created_at)
       VALUES ('tcl_lost', $1, $2, $3, 'check_order', 'lost', now() - interval '5 minutes')`,
      [id, owner.id, toolId],
    );
    const res = await invoke({ call_id: id, tool_id: toolId, params: { order_id: 'A' }, invocation_id: 'lost' });
    expect(res.body.ok).toBe(true);
    expect(receiver.received).toHaveLength(1);
    const toolCalls = (await getCall(t, owner, id)).tool_calls;
    expect(toolCalls.map((c: { id: string }) => c.id)).toEqual([receiver.received[0].webhookId]);
  });

  it("answers 404 for an unknown call, a tool not attached, another account's tool and a deleted tool", async () => {
    const id = await call();
    const notFound = await invoke({ call_id: 999_999, tool_id: toolId });
    expect([notFound.status, notFound.body]).toEqual([404, { message: 'Call not found' }]);
    const strangersTool = (
      await t.http
        .post('/api/user/tools')
        .set(stranger.auth)
        .send({ name: 'x', description: 'Other account', method: 'GET', endpoint: receiver.url('/x') })
    ).body.data.id;
    const ownUnattached = (
      await t.http
        .post('/api/user/tools')
        .set(owner.auth)
        .send({ name: 'y', description: 'Not attached', method: 'GET', endpoint: receiver.url('/y') })
    ).body.data.id;
    for (const tool of [strangersTool, ownUnattached, 999_999]) {
      const res = await invoke({ call_id: id, tool_id: tool });
      expect([res.status, res.body]).toEqual([404, { message: 'Tool not found' }]);
    }

    const doomed = (
      await t.http
        .post('/api/user/tools')
        .set(owner.auth)
        .send({ name: 'doomed', description: 'Deleted mid-call', method: 'GET', endpoint: receiver.url('/d') })
    ).body.data.id;
    const withDoomed = await createAssistant(t, owner, { tool_ids: [doomed] });
    const live = await makeCall(t, owner, withDoomed);
    await t.http.delete(`/api/user/tools/${doomed}`).set(owner.auth);
    const gone = await invoke({ call_id: live, tool_id: doomed });
    expect([gone.status, gone.body]).toEqual([404, { message: 'Tool not found' }]);
    expect(receiver.received).toHaveLength(0);
  });

  it.each([
    [{}, { call_id: ['The call id field is required.'], tool_id: ['The tool id field is required.'] }],
    [
      { call_id: 'abc', tool_id: 1.5 },
      { call_id: ['The call id must be an integer.'], tool_id: ['The tool id must be an integer.'] },
    ],
    [{ call_id: 1, tool_id: 1, params: [1] }, { params: ['The params must be an object.'] }],
    [
      { call_id: 1, tool_id: 1, invocation_id: 'x'.repeat(129) },
      { invocation_id: ['The invocation id may not be greater than 128 characters.'] },
    ],
  ])('refuses %p', async (body, errors) => {
    const res = await invoke(body);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: 'The given data was invalid.', errors });
  });

  it('accepts only the runtime token', async () => {
    for (const auth of [owner.auth, t.admin, {}]) {
      const res = await t.http.post('/api/runtime/tool-calls').set(auth).send({ call_id: 1, tool_id: toolId });
      expect([res.status, res.body]).toEqual([401, { error: 'Unauthorized' }]);
    }
  });
});
