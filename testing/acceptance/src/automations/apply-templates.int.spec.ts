import { ManualClock } from '@voiceplane/adapter-fakes';
import { Database, PostgresJobStore } from '@voiceplane/adapter-typeorm';
import {
  ApplyTemplate,
  AUTOMATION_EVENTS_CONSUMER,
  AutomationChatapp,
  AutomationEngine,
  automationResumeJobs,
  AutomationSteps,
  Doorbell,
  type JobHandler,
  JobRunner,
  SecretCipher,
  TemplateChecks,
  TOKENS,
  VersionPublisher,
  type Token,
  resumeJobKey,
} from '@voiceplane/application';
import { DEFAULT_PLAN, err, findTemplate, JsonObject, ok } from '@voiceplane/domain';
import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';
import { WebhookReceiver } from '@voiceplane/stand-ins/fault/webhook-receiver';
import { createAssistant } from '@voiceplane/stand-ins/calls/fixtures';
import { answerFor } from '@voiceplane/adapter-http';
import { APPLY_ANSWERS } from '@voiceplane/adapter-http';

/**
 * Applying every catalogue template end to end:
 * real tests against receivers and stub CRMs on 127.0.0.1, each hard failure, paused runs resumed
 * by the durable scheduler exactly once across two workers, assistant-event runs once per event,
 * and the automation tool at call time.
 */

const TEMPLATES = '/api/user/automate/templates';
const TEST_PHONE = '+14155551234';
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

let t: TestApi;
let receiver: WebhookReceiver;
const get = <T>(token: Token<T>): T => t.runtime.container.get(token);

beforeAll(async () => {
  t = await createTestApi({ startBackground: false, config: { publicBaseUrl: 'https://voiceplane.example.com' } });
  receiver = await WebhookReceiver.start();
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});
beforeEach(() =>
  receiver.respondWith(() => ({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"ok":true}' })),
);

const apply = (user: TestUser, key: string, body: Record<string, unknown>) =>
  t.http.post(`${TEMPLATES}/${key}`).set(user.auth).send(body);
const runs = (user: TestUser, id: string, query = '') =>
  t.http.get(`/api/user/automate/flows/${id}/runs${query}`).set(user.auth);

async function ordersTable(user: TestUser, rows: Array<Record<string, unknown>>): Promise<number> {
  const id = (
    await t.http
      .post('/api/user/automate/tables')
      .set(user.auth)
      .send({
        name: 'Customer Orders',
        columns: [
          { name: 'order_number', type: 'string' },
          { name: 'status', type: 'string' },
        ],
      })
  ).body.data.id;
  if (rows.length > 0)
    await t.http
      .post(`/api/user/automate/tables/${id}/rows`)
      .set(user.auth)
      .send({ rows: rows.map((values) => ({ values })) });
  return id;
}

async function connection(user: TestUser, authValue = 'token-1'): Promise<number> {
  const res = await t.http
    .post('/api/user/automate/connections')
    .set(user.auth)
    .send({
      name: 'Acme CRM',
      kind: 'http_api',
      base_url: receiver.url('/crm'),
      auth_type: 'bearer',
      auth_value: authValue,
    });
  return res.body.data.id;
}

describe('the catalogue', () => {
  it('lists the templates with their param specs, and answers 404 for an unknown key', async () => {
    const list = await t.http.get(TEMPLATES).set((await t.createUser()).auth);
    expect(list.body.data.map((x: { key: string }) => x.key)).toEqual([
      'lead_intake_call',
      'post_call_chatapp_followup',
      'post_call_webhook_forward',
      'midcall_lookup_table',
      'delayed_followup_call',
      'crm_note_on_call',
      'conversation_webhook_forward',
    ]);
    const one = (await t.http.get(`${TEMPLATES}/midcall_lookup_table`).set((await t.createUser()).auth)).body.data;
    expect(one).toMatchObject({
      requires_assistant: false,
      side_effects: false,
      binding_type: 'webhook',
      needs_connection: null,
      steps: ['webhook_trigger', 'lookup_row', 'respond'],
    });
    expect(Object.keys(one.params[0]).sort()).toEqual(['description', 'example', 'key', 'label', 'required']);
    const missing = await t.http.get(`${TEMPLATES}/nope`).set((await t.createUser()).auth);
    expect([missing.status, missing.body]).toEqual([
      404,
      { message: 'Automation template not found.', error: 'template_not_found', params: null },
    ]);
  });
});

describe('midcall_lookup_table', () => {
  it('tests with the first row, answers the webhook URL and keeps the run', async () => {
    const user = await t.createUser();
    const table = await ordersTable(user, [
      { order_number: 'A-1001', status: 'shipped' },
      { order_number: 'A-1002', status: 'pending' },
    ]);
    const res = await apply(user, 'midcall_lookup_table', {
      params: { table_id: String(table), key_column: 'order_number' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      automation_id: expect.stringMatching(/^aut_[0-9A-Za-z]{22}$/),
      webhook_url: expect.stringMatching(
        /^https:\/\/voiceplane\.example\.com\/api\/hooks\/automations\/aut_[0-9A-Za-z]{22}\/[0-9A-Za-z]{32}$/,
      ),
      status: 'active',
      test: {
        run_id: expect.stringMatching(/^run_/),
        run_status: 'SUCCEEDED',
        steps: [
          { name: 'webhook_trigger', status: 'SUCCEEDED', classification: 'ok', error: null },
          { name: 'lookup_row', status: 'SUCCEEDED', classification: 'ok', error: null },
          { name: 'respond', status: 'SUCCEEDED', classification: 'ok', error: null },
        ],
      },
      response: { found: true, row: { order_number: 'A-1001', status: 'shipped' } },
      binding: { type: 'webhook', assistant_id: null, bound: true },
    });
    expect(res.body.webhook_url).toContain(res.body.automation_id);

    const list = await runs(user, res.body.automation_id);
    expect(list.body).toEqual({
      runs: [
        {
          id: res.body.test.run_id,
          status: 'SUCCEEDED',
          start_time: expect.any(String),
          duration_ms: expect.any(Number),
        },
      ],
    });
    const detail = await runs(user, res.body.automation_id, `?run_id=${res.body.test.run_id}`);
    expect(detail.body.run).toMatchObject({
      id: res.body.test.run_id,
      is_test: true,
      trigger: 'test',
      resume_at: null,
      retry_of_run_id: null,
      version_id: expect.stringMatching(/^ver_/),
    });
    expect((await runs(user, res.body.automation_id, '?limit=21')).body).toEqual({
      message: 'The given data was invalid.',
      errors: { limit: ['The limit must be between 1 and 20.'] },
    });
    expect((await runs(user, res.body.automation_id, '?run_id=run_nope')).body).toEqual({ message: 'Run not found' });
    expect((await runs(await t.createUser(), res.body.automation_id)).body).toEqual({
      message: 'Automation not found',
    });
  });

  it('fails its test on an empty table (missing_record) and stays unbound', async () => {
    const user = await t.createUser();
    const table = await ordersTable(user, []);
    const res = await apply(user, 'midcall_lookup_table', { params: { table_id: table, key_column: 'order_number' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'test_failed',
      response: { found: false },
      binding: { type: 'webhook', assistant_id: null, bound: false },
      webhook_url: expect.any(String),
    });
    expect(res.body.test.steps[1]).toEqual({
      name: 'lookup_row',
      status: 'FAILED',
      classification: 'missing_record',
      error: 'No row matches "".',
    });
    expect(res.body.test.steps[2]).toMatchObject({ name: 'respond', status: 'SUCCEEDED' });
  });

  it('refuses foreign tables and columns with choices, creating nothing', async () => {
    const user = await t.createUser();
    const mine = await ordersTable(user, [{ order_number: 'A-1' }]);
    const theirs = await ordersTable(await t.createUser(), []);
    const foreign = await apply(user, 'midcall_lookup_table', {
      params: { table_id: theirs, key_column: 'order_number' },
    });
    expect(foreign.body).toMatchObject({
      error: 'invalid_param_choice',
      params: [{ key: 'table_id' }],
      choices: [{ value: String(mine), label: 'Customer Orders' }],
    });
    const column = await apply(user, 'midcall_lookup_table', { params: { table_id: mine, key_column: 'sku' } });
    expect(column.body).toMatchObject({
      error: 'invalid_param_choice',
      params: [{ key: 'key_column' }],
      choices: [{ value: 'order_number' }, { value: 'status' }],
    });
    const [{ n }] = await t.db.dataSource.query(`SELECT count(*)::int AS n FROM automations WHERE user_id = $1`, [
      user.id,
    ]);
    expect(n).toBe(0);
  });

  it('with an assistant creates and attaches an automation tool that runs at call time', async () => {
    const user = await t.createUser();
    const assistant = await createAssistant(t, user);
    const table = await ordersTable(user, [{ order_number: 'A-1001', status: 'shipped' }]);
    const res = await apply(user, 'midcall_lookup_table', {
      params: { table_id: table, key_column: 'order_number', input_field: 'order' },
      assistant_id: assistant,
    });
    expect(res.status).toBe(201);
    expect(res.body.binding).toEqual({ type: 'tool', assistant_id: assistant, bound: true });
    const tools = (await t.http.get('/api/user/tools').set(user.auth)).body;
    expect(tools).toEqual([
      expect.objectContaining({
        name: 'lookup_customer_orders',
        description: 'Look up a record in Customer Orders by order_number.',
        type: 'automation',
        method: 'POST',
        endpoint: res.body.webhook_url.replace(/[^/]+$/, '[redacted]'),
        automation_id: res.body.automation_id,
        schema: [{ name: 'order', type: 'string', description: 'Value of order_number to look up', required: true }],
      }),
    ]);
    // The hook's token is kept sealed on the automation alone: the tool's row holds none of it.
    const token = res.body.webhook_url.split('/').pop() as string;
    const [stored] = await t.db.dataSource.query(`SELECT endpoint FROM tools WHERE id = $1`, [tools[0].id]);
    expect(stored.endpoint).not.toContain(token);
    const [{ clear }] = await t.db.dataSource.query(
      `SELECT count(*)::int AS clear FROM tools t, automations a WHERE position($1 in t.endpoint) > 0 OR a.webhook_token = $1`,
      [token],
    );
    expect(clear).toBe(0);
    const again = await apply(user, 'midcall_lookup_table', {
      params: { table_id: table, key_column: 'order_number' },
      assistant_id: assistant,
    });
    expect(again.body).toMatchObject({
      error: 'invalid_params',
      errors: { 'params.tool_name': ['The assistant already has a tool named lookup_customer_orders.'] },
    });

    const call = (
      await t.http
        .post('/api/user/make_call')
        .set(user.auth)
        .send({ assistant_id: assistant, phone_number: TEST_PHONE })
    ).body.call_id;
    const invoked = await t.http
      .post('/api/runtime/tool-calls')
      .set(t.runtimeAuth)
      .send({ call_id: call, tool_id: tools[0].id, params: { order: ' a-1001 ' } });
    expect(invoked.body).toMatchObject({
      ok: true,
      status_code: 200,
      content: '{"found":true,"row":{"order_number":"A-1001","status":"shipped"}}',
      error: null,
    });
    // The tool's run is stored after the call got its answer.
    await get(TOKENS.AutomationEngine).settled();
    const list = (await runs(user, res.body.automation_id)).body.runs;
    expect(list).toHaveLength(2);
  });

  it('refuses a tool over the plan limit', async () => {
    const user = await t.createUser({ plan: { max_mid_call_tools: 0 } });
    const assistant = await createAssistant(t, user);
    const table = await ordersTable(user, [{ order_number: 'A-1' }]);
    const res = await apply(user, 'midcall_lookup_table', {
      params: { table_id: table, key_column: 'order_number' },
      assistant_id: assistant,
    });
    expect(res.body).toEqual({
      message: 'You have reached your plan limit of 0 mid call tools. Please upgrade your plan to create more tools.',
      error: 'tool_limit_reached',
      params: null,
    });
  });
});

describe('post_call_webhook_forward', () => {
  it('posts the signed sample marked as a test, binds to the assistant and refuses a second one', async () => {
    const user = await t.createUser();
    const assistant = await createAssistant(t, user);
    const res = await apply(user, 'post_call_webhook_forward', {
      assistant_id: assistant,
      params: { url: receiver.url('/calls'), include_transcript: 'false' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: 'active',
      webhook_url: null,
      response: { status_code: 200, body: { ok: true } },
      binding: { type: 'assistant_event', assistant_id: assistant, bound: true },
    });
    const hook = receiver.received[receiver.received.length - 1];
    expect(hook.path).toBe('/calls');
    expect(hook.webhookId).toMatch(/^msg_/);
    expect(hook.headers['x-voiceplane-event']).toBe('automation_http');
    const body = JSON.parse(hook.body);
    expect(body).toMatchObject({ id: 0, assistant_id: assistant, status: 'completed', test: true });
    expect(body).not.toHaveProperty('transcript');

    const conflict = await apply(user, 'post_call_webhook_forward', {
      assistant_id: assistant,
      params: { url: receiver.url('/calls') },
    });
    expect(conflict.body).toEqual({
      message: `Assistant ${assistant} already has an enabled post_call_webhook_forward automation on call.ended.`,
      error: 'binding_conflict',
      params: null,
      conflicting_automation_id: res.body.automation_id,
    });
  });

  it('runs once per call.ended event of its assistant', async () => {
    const user = await t.createUser();
    const assistant = await createAssistant(t, user);
    const res = await apply(user, 'post_call_webhook_forward', {
      assistant_id: assistant,
      params: { url: receiver.url('/events') },
      test: false,
    });
    expect(res.body).toMatchObject({
      status: 'active_untested',
      test: { run_id: null, run_status: null, steps: [] },
      response: null,
    });
    const consumer = t.runtime.container
      .getAll(TOKENS.EventConsumer)
      .find((c) => c.options.consumer === AUTOMATION_EVENTS_CONSUMER);
    const message = {
      id: 'evt_call_ended_1',
      topic: 'call.ended',
      occurredAt: new Date().toISOString(),
      payload: {
        call_id: 77,
        user_id: user.id,
        assistant_id: assistant,
        call: { id: 77, assistant_id: assistant, status: 'completed', customer_phone: TEST_PHONE },
      },
    };
    await consumer!.handle(message);
    await consumer!.handle(message);
    const list = (await runs(user, res.body.automation_id)).body.runs;
    expect(list).toHaveLength(1);
    const detail = (await runs(user, res.body.automation_id, `?run_id=${list[0].id}`)).body.run;
    expect(detail).toMatchObject({ status: 'SUCCEEDED', is_test: false, trigger: 'assistant_event' });
    const delivered = receiver.received.filter((r) => r.path === '/events');
    expect(delivered).toHaveLength(1);
    expect(JSON.parse(delivered[0].body)).toEqual({
      id: 77,
      assistant_id: assistant,
      status: 'completed',
      customer_phone: TEST_PHONE,
      automation_run_id: null,
    });
  });

  it('reports a failing receiver as test_failed with step_error', async () => {
    const user = await t.createUser();
    const assistant = await createAssistant(t, user);
    receiver.respondWith(() => ({ status: 500, body: 'down' }));
    const res = await apply(user, 'post_call_webhook_forward', {
      assistant_id: assistant,
      params: { url: receiver.url('/calls') },
    });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('test_failed');
    expect(res.body.test.steps[1]).toEqual({
      name: 'forward_webhook',
      status: 'FAILED',
      classification: 'step_error',
      error: 'The target answered HTTP 500.',
    });
    expect(res.body.binding.bound).toBe(false);
  });

  it('answers the hard failures in contract order, creating nothing', async () => {
    const user = await t.createUser();
    const assistant = await createAssistant(t, user);
    const foreign = await createAssistant(t, await t.createUser());
    const cases: Array<[Record<string, unknown>, Record<string, unknown>]> = [
      [
        { params: 'x', assistant_id: 'abc' },
        {
          error: 'invalid_params',
          params: null,
          errors: expect.objectContaining({ params: expect.any(Array), assistant_id: expect.any(Array) }),
        },
      ],
      [
        { params: { big: 'x'.repeat(70_000) } },
        { error: 'invalid_params', errors: { params: ['The params may not be greater than 64 kilobytes.'] } },
      ],
      [
        { params: {} },
        { message: 'This template requires an assistant_id.', error: 'assistant_required', params: null },
      ],
      [
        { assistant_id: foreign, params: {} },
        { message: 'Assistant not found.', error: 'assistant_not_found', params: null },
      ],
      [
        { assistant_id: assistant, params: { url: '' } },
        {
          message: 'Missing required parameters: url.',
          error: 'missing_params',
          params: [expect.objectContaining({ key: 'url', required: true })],
        },
      ],
      [
        { assistant_id: assistant, params: { url: 'ftp://x', include_transcript: 'maybe' } },
        {
          error: 'invalid_params',
          params: [expect.objectContaining({ key: 'url' }), expect.objectContaining({ key: 'include_transcript' })],
          errors: {
            'params.url': ['The target url must be a public http or https URL.'],
            'params.include_transcript': ['The include transcript field must be true or false.'],
          },
        },
      ],
    ];
    for (const [body, expected] of cases) {
      const res = await apply(user, 'post_call_webhook_forward', body);
      expect([res.status, res.body]).toEqual([422, expect.objectContaining(expected)]);
    }
    const [{ n }] = await t.db.dataSource.query(`SELECT count(*)::int AS n FROM automations WHERE user_id = $1`, [
      user.id,
    ]);
    expect(n).toBe(0);
  });
});

describe('crm_note_on_call', () => {
  it('needs a connection, a working one, then posts the note with the credentials', async () => {
    const user = await t.createUser();
    const assistant = await createAssistant(t, user);
    const needs = await apply(user, 'crm_note_on_call', { assistant_id: assistant, params: { connection_id: 3 } });
    expect(needs.body).toMatchObject({
      message: 'This template needs an http_api connection. Create one first.',
      error: 'needs_connection',
      params: [{ key: 'connection_id' }],
    });
    const id = await connection(user);
    expect(
      (await apply(user, 'crm_note_on_call', { assistant_id: assistant, params: { connection_id: id + 1000 } })).body,
    ).toMatchObject({ error: 'invalid_param_choice', choices: [{ value: String(id), label: 'Acme CRM' }] });
    await t.http.put(`/api/sandbox/automate/connections/${id}/status`).set(user.auth).send({ status: 'broken' });
    expect(
      (await apply(user, 'crm_note_on_call', { assistant_id: assistant, params: { connection_id: id } })).body,
    ).toEqual({
      message: `Connection ${id} (Acme CRM) is broken. Update its credentials and check it again.`,
      error: 'needs_reconnection',
      params: [expect.objectContaining({ key: 'connection_id' })],
    });
    await t.http.put(`/api/sandbox/automate/connections/${id}/status`).set(user.auth).send({ status: 'connected' });

    receiver.respondWith(() => ({ status: 201, body: '{}' }));
    const res = await apply(user, 'crm_note_on_call', { assistant_id: assistant, params: { connection_id: id } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'active', response: { status_code: 201 } });
    const note = receiver.received[receiver.received.length - 1];
    expect(note.path).toBe('/crm/notes');
    expect(note.headers.authorization).toBe('Bearer token-1');
    expect(JSON.parse(note.body)).toEqual({
      phone: '+15555550100',
      text: 'Call 0 (completed): Customer asked for a follow-up.',
      call_id: 0,
      assistant_id: assistant,
      occurred_at: '2026-03-01T10:00:42.000Z',
      test: true,
    });
  });

  it('a 401 from the CRM fails the test as missing_connection and breaks the connection', async () => {
    const user = await t.createUser();
    const assistant = await createAssistant(t, user);
    const id = await connection(user);
    receiver.respondWith(() => ({ status: 401, body: 'no' }));
    const res = await apply(user, 'crm_note_on_call', { assistant_id: assistant, params: { connection_id: id } });
    expect(res.body.status).toBe('test_failed');
    expect(res.body.test.steps[1]).toMatchObject({
      name: 'push_note',
      status: 'FAILED',
      classification: 'missing_connection',
    });
    expect((await t.http.get('/api/user/automate/connections').set(user.auth)).body.data[0].status).toBe('broken');
  });
});

describe('lead_intake_call', () => {
  it('requires confirmation, then really calls the test number', async () => {
    const user = await t.createUser();
    const assistant = await createAssistant(t, user);
    const params = { test_phone_number: TEST_PHONE, variable_fields: 'email,interest' };
    expect((await apply(user, 'lead_intake_call', { assistant_id: assistant, params })).body).toMatchObject({
      error: 'side_effects_require_confirmation',
      params: null,
    });
    expect(
      (await apply(user, 'lead_intake_call', { assistant_id: assistant, params: { test_phone_number: '555' } })).body,
    ).toMatchObject({
      error: 'invalid_params',
      errors: { 'params.test_phone_number': ['The test phone number must be a valid E.164 phone number.'] },
    });
    const res = await apply(user, 'lead_intake_call', { assistant_id: assistant, params, confirm_side_effects: true });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: 'active',
      response: { call_id: expect.any(Number), status: 'initiated' },
      binding: { type: 'webhook', assistant_id: assistant, bound: true },
    });
    const call = (await t.http.get(`/api/user/calls/${res.body.response.call_id}`).set(user.auth)).body.data;
    expect(call).toMatchObject({ customer_phone: TEST_PHONE, assistant_id: assistant });
  });
});

describe('post_call_chatapp_followup', () => {
  it('refuses on sender_id while no chat-app capability is composed', async () => {
    const user = await t.createUser();
    const assistant = await createAssistant(t, user);
    const res = await apply(user, 'post_call_chatapp_followup', {
      assistant_id: assistant,
      params: { sender_id: 12, template_id: 34, test_phone_number: TEST_PHONE },
      confirm_side_effects: true,
    });
    expect(res.body).toEqual({
      message: 'Sender 12 is not a chat-app sender of this account.',
      error: 'invalid_param_choice',
      params: [
        {
          key: 'sender_id',
          label: 'Sender',
          description: 'Chat-app sender that sends the follow-up.',
          required: true,
          example: '12',
        },
      ],
      choices: [],
    });
  });

  it('sends through the chat-app port: success, variables coverage, and a refusal as step_error', async () => {
    const sent: unknown[] = [];
    let refuseWith: string | null = null;
    const chatapp: AutomationChatapp = {
      sendTemplate: async (request) => {
        sent.push(request);
        return refuseWith
          ? err({ code: 'refused', detail: refuseWith })
          : ok({ messageSid: 'SM1', chatappMessageId: 9130, conversationId: 881, status: 'queued' });
      },
      approvedTemplates: async (_user, senderId) =>
        senderId === 12 ? [{ templateId: 34, label: 'order_update (en)', variables: ['1'] }] : null,
      senderChoices: async () => [{ value: '12', label: 'Main line' }],
    };
    const user = await t.createUser();
    const assistant = await createAssistant(t, user);
    const request = (params: JsonObject) => applyChatappTemplate(chatapp, user.id, assistant, params);
    const uncovered = await request({ sender_id: 12, template_id: 34, test_phone_number: TEST_PHONE });
    expect(uncovered).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_params',
        problems: [{ spec: { key: 'variables_map' }, problem: { code: 'variables_uncovered', missing: ['1'] } }],
      },
    });
    if (uncovered.ok) throw new Error('expected a refusal');
    expect(answerFor(APPLY_ANSWERS, uncovered.error).body).toMatchObject({
      errors: { 'params.variables_map': ['The template variables map must cover: 1.'] },
    });
    const wrongTemplate = await request({ sender_id: 12, template_id: 99, test_phone_number: TEST_PHONE });
    expect(wrongTemplate).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_param_choice',
        message: 'Template 99 is not an approved template of sender 12. Choices: 34 (order_update (en)).',
      },
    });

    const good = await request({
      sender_id: '12',
      template_id: 34,
      test_phone_number: TEST_PHONE,
      variables_map: '{"1":"{{call.extracted_variables.customer_name}}"}',
    });
    expect(good).toMatchObject({
      ok: true,
      value: {
        status: 'active',
        response: { message_sid: 'SM1', chatapp_message_id: 9130, conversation_id: 881, status: 'queued' },
      },
    });
    expect(sent).toEqual([
      { userId: user.id, senderId: 12, templateId: 34, recipientPhone: TEST_PHONE, variables: { 1: 'Test Customer' } },
    ]);

    refuseWith = 'SENDER_OFFLINE: Sender is not online. Current status: offline';
    const other = await t.createUser();
    const failed = await applyChatappTemplate(chatapp, other.id, await createAssistant(t, other), {
      sender_id: 12,
      template_id: 34,
      test_phone_number: TEST_PHONE,
      variables_map: { 1: 'x' },
    });
    expect(failed).toMatchObject({ ok: true, value: { status: 'test_failed' } });
    const step = failed.ok ? failed.value.run?.steps[2] : null;
    expect(step).toMatchObject({
      name: 'send_template',
      classification: 'step_error',
      failure: { reason: 'chatapp_error', detail: refuseWith },
    });
  });
});

/** The apply use case as the composition builds it, with a chat-app port the test controls. */
function applyChatappTemplate(chatapp: AutomationChatapp, userId: number, assistantId: number, params: JsonObject) {
  const checks = new TemplateChecks(
    get(TOKENS.DataTableRepository),
    get(TOKENS.ConnectionRepository),
    get(TOKENS.AutomationToolBinding),
    chatapp,
    { checkUrl: () => null },
  );
  const use = new ApplyTemplate(
    {
      uow: get(TOKENS.UnitOfWork),
      automations: get(TOKENS.AutomationRepository),
      assistants: get(TOKENS.AssistantRepository),
      tools: get(TOKENS.AutomationToolBinding),
    },
    { checks, publisher: t.runtime.container.get(VersionPublisher), engine: engineWith(get(TOKENS.Clock), chatapp) },
    get(TOKENS.Clock),
    get(TOKENS.Ids),
    'https://voiceplane.example.com',
  );
  return use.execute({
    userId,
    plan: DEFAULT_PLAN,
    template: findTemplate('post_call_chatapp_followup')!,
    params,
    assistantId,
    name: null,
    confirmSideEffects: true,
    test: true,
    sample: null,
  });
}

/** An engine as another worker process would have it: its own clock, the same database. */
function engineWith(clock: { now(): Date }, chatapp: AutomationChatapp | null = null): AutomationEngine {
  const steps = new AutomationSteps({
    http: get(TOKENS.OutboundHttpClient),
    gateway: get(TOKENS.ToolGateway),
    tables: get(TOKENS.DataTableRepository),
    connections: get(TOKENS.ConnectionRepository),
    cipher: t.runtime.container.get(SecretCipher),
    makeCall: get(TOKENS.MakeCall),
    chatapp,
    clock,
  });
  return new AutomationEngine(
    {
      automations: get(TOKENS.AutomationRepository),
      runs: get(TOKENS.AutomationRunRepository),
      uow: get(TOKENS.UnitOfWork),
    },
    { steps, scheduler: get(TOKENS.JobScheduler) },
    clock,
    get(TOKENS.Ids),
  );
}

describe('delayed_followup_call', () => {
  async function applyDelayed(user: TestUser): Promise<{ automationId: string; runId: string }> {
    const assistant = await createAssistant(t, user);
    const res = await apply(user, 'delayed_followup_call', {
      assistant_id: assistant,
      params: { delay_minutes: '30', test_phone_number: TEST_PHONE },
      confirm_side_effects: true,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'active', test: { run_status: 'PAUSED' }, binding: { bound: true } });
    expect(res.body.test.steps.slice(2)).toEqual([
      { name: 'wait', status: 'PAUSED', classification: 'paused_at_delay', error: null },
      { name: 'place_call', status: 'PENDING', classification: 'ok', error: null },
    ]);
    expect(res.body.response).toEqual({ resume_at: expect.any(String) });
    return { automationId: res.body.automation_id, runId: res.body.test.run_id };
  }

  it('parks at the delay, and the scheduler resumes it exactly once across two workers', async () => {
    const user = await t.createUser();
    const { automationId, runId } = await applyDelayed(user);
    const paused = (await runs(user, automationId, `?run_id=${runId}`)).body.run;
    expect(paused.status).toBe('PAUSED');
    const clock = new ManualClock(new Date(paused.resume_at));
    clock.advance(-1_000);
    // The test counts only the handling of its own run's job. The bare runners claim every job due by the manual clock,
    // and the resume itself schedules one (the placed call's dispatch watchdog, 10 real minutes ahead, so due by this
    // clock 30 minutes ahead): a worker whose claim lands after that commit claims it too, which is no second resume.
    const job = resumeJobKey(runId);
    const handledBy: number[] = [];
    const store = new PostgresJobStore(new Database(t.db.dataSource));
    const workers = [0, 1].map((worker) => {
      const resume = automationResumeJobs(engineWith(clock), silent);
      const counted: JobHandler = {
        kind: resume.kind,
        handle: async (claimed) => {
          if (claimed.key === job) handledBy.push(worker);
          await resume.handle(claimed);
        },
      };
      return new JobRunner(store, [counted], clock, get(TOKENS.Ids), new Doorbell(), silent);
    });
    try {
      await workers[0].runDue();
      await workers[0].stop();
      expect(handledBy).toEqual([]);
      clock.advance(2_000);
      await Promise.all(workers.map((w) => w.runDue()));
      await Promise.all(workers.map((w) => w.stop()));
      // Once more each, now that the first handling has finished: the job is gone, not merely held.
      await Promise.all(workers.map((w) => w.runDue()));
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
    }
    expect(handledBy).toHaveLength(1);
    const [{ n }] = await t.db.dataSource.query(`SELECT count(*)::int AS n FROM scheduled_jobs WHERE key = $1`, [job]);
    expect(n).toBe(0);

    const done = (await runs(user, automationId, `?run_id=${runId}`)).body.run;
    expect(done).toMatchObject({ status: 'SUCCEEDED', resume_at: null });
    expect(done.steps.slice(2)).toEqual([
      { name: 'wait', status: 'SUCCEEDED', classification: 'ok', error: null },
      { name: 'place_call', status: 'SUCCEEDED', classification: 'ok', error: null },
    ]);
    const calls = await t.db.dataSource.query(`SELECT id FROM calls WHERE user_id = $1`, [user.id]);
    expect(calls).toHaveLength(1);
  });

  it('two workers resuming the same run directly: one wins', async () => {
    const user = await t.createUser();
    const { automationId, runId } = await applyDelayed(user);
    const clock = new ManualClock(new Date(Date.now() + 31 * 60_000));
    const results = await Promise.all([
      engineWith(clock).resume(automationId, runId),
      engineWith(clock).resume(automationId, runId),
    ]);
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    expect(await t.db.dataSource.query(`SELECT id FROM calls WHERE user_id = $1`, [user.id])).toHaveLength(1);
  });

  it('the sandbox resume-now resumes a paused run at once; a second time it is not paused', async () => {
    const user = await t.createUser();
    const { runId } = await applyDelayed(user);
    const res = await t.http.post(`/api/sandbox/automate/runs/${runId}/resume-now`).set(user.auth);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, run: { id: runId, status: 'SUCCEEDED' } });
    const again = await t.http.post(`/api/sandbox/automate/runs/${runId}/resume-now`).set(user.auth);
    expect([again.status, again.body]).toEqual([422, { message: 'The run is not paused.' }]);
    expect(
      (await t.http.post(`/api/sandbox/automate/runs/${runId}/resume-now`).set((await t.createUser()).auth)).body,
    ).toEqual({ message: 'Not found.' });
    const [{ n }] = await t.db.dataSource.query(`SELECT count(*)::int AS n FROM scheduled_jobs WHERE key = $1`, [
      `automation-resume:${runId}`,
    ]);
    expect(n).toBe(0);
  });
});
