import { TOKENS } from '@voiceplane/application';
import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';
import { WebhookReceiver } from '@voiceplane/stand-ins/fault/webhook-receiver';
import { createAssistant } from '@voiceplane/stand-ins/calls/fixtures';

/**
 * The automation lifecycle (sandbox fault `automation_rollback`):
 * versions made by updates, restores that toggle and refuse without changing anything, enable,
 * disable and delete, retries, and the webhook trigger route. What must stay unchanged is read
 * back from the database.
 */

const FLOWS = '/api/user/automate/flows';
const TEST_PHONE = '+14155551234';
const NOT_FOUND = { message: 'Automation not found', error: 'not_found', params: null };

let t: TestApi;
let receiver: WebhookReceiver;

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
  t.http.post(`/api/user/automate/templates/${key}`).set(user.auth).send(body);
const flow = (user: TestUser, id: string) => t.http.get(`${FLOWS}/${id}`).set(user.auth);
const update = (user: TestUser, id: string, body: Record<string, unknown>) =>
  t.http.put(`${FLOWS}/${id}`).set(user.auth).send(body);
const restore = (user: TestUser, id: string) => t.http.post(`${FLOWS}/${id}/restore`).set(user.auth);
const versions = (user: TestUser, id: string) => t.http.get(`${FLOWS}/${id}/versions`).set(user.auth);
const hookPath = (webhookUrl: string) => new URL(webhookUrl).pathname;
const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> =>
  t.db.dataSource.query(text, params);

async function table(user: TestUser, name: string, rows: Array<Record<string, unknown>>): Promise<number> {
  const id = (
    await t.http
      .post('/api/user/automate/tables')
      .set(user.auth)
      .send({
        name,
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

/** A lookup automation with a linked tool on an assistant. */
async function lookupWithTool(user: TestUser) {
  const assistant = await createAssistant(t, user);
  const orders = await table(user, 'Orders', [{ order_number: 'A-1', status: 'shipped' }]);
  const res = await apply(user, 'midcall_lookup_table', {
    assistant_id: assistant,
    params: { table_id: orders, key_column: 'order_number', tool_name: 'find_order' },
  });
  expect(res.status).toBe(201);
  return { assistant, orders, id: res.body.automation_id as string, webhookUrl: res.body.webhook_url as string };
}

async function stored(id: string) {
  const [automation] = await sql<{ live_version_id: string; status: string; bound: boolean; tool_id: string | null }>(
    `SELECT live_version_id, status, bound, tool_id FROM automations WHERE id = $1`,
    [id],
  );
  const versionRows = await sql<{ id: string; number: number; state: string }>(
    `SELECT id, number, state FROM automation_versions WHERE automation_id = $1 ORDER BY number`,
    [id],
  );
  const tools = automation?.tool_id
    ? await sql<{ name: string; description: string; schema: unknown }>(
        `SELECT name, description, schema FROM tools WHERE id = $1`,
        [automation.tool_id],
      )
    : [];
  return { automation, versions: versionRows, tool: tools[0] ?? null };
}

describe('flows list, get and versions', () => {
  it('lists with the page envelope and filters, shows the record, answers 404 for others', async () => {
    const user = await t.createUser();
    const { id, assistant, webhookUrl } = await lookupWithTool(user);
    const assistant2 = await createAssistant(t, user);
    const forward = (
      await apply(user, 'post_call_webhook_forward', {
        assistant_id: assistant2,
        params: { url: receiver.url('/calls') },
      })
    ).body.automation_id;

    const all = await t.http.get(FLOWS).set(user.auth);
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ current_page: 1, per_page: 15, total: 2, last_page: 1 });
    expect(all.body.data.map((a: { id: string }) => a.id)).toEqual([forward, id]);
    const filtered = await t.http.get(`${FLOWS}?template_key=midcall_lookup_table`).set(user.auth);
    expect(filtered.body.data.map((a: { id: string }) => a.id)).toEqual([id]);
    expect(
      (await t.http.get(`${FLOWS}?assistant_id=${assistant2}`).set(user.auth)).body.data.map(
        (a: { id: string }) => a.id,
      ),
    ).toEqual([forward]);
    expect((await t.http.get(`${FLOWS}?status=disabled`).set(user.auth)).body.total).toBe(0);
    expect((await t.http.get(`${FLOWS}?template_key=nope`).set(user.auth)).status).toBe(422);

    const one = await flow(user, id);
    expect(one.body.data).toEqual({
      id,
      name: 'Mid-call lookup in a data table',
      template_key: 'midcall_lookup_table',
      status: 'enabled',
      binding: { type: 'tool', assistant_id: assistant, bound: true },
      webhook_url: webhookUrl,
      tool_id: expect.any(Number),
      params: expect.objectContaining({ key_column: 'order_number', tool_name: 'find_order' }),
      live_version_id: expect.stringMatching(/^ver_/),
      live_version_number: 1,
      versions_count: 1,
      last_test: { run_id: expect.stringMatching(/^run_/), run_status: 'SUCCEEDED', tested_at: expect.any(String) },
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const listed = (await versions(user, id)).body.data;
    expect(listed).toEqual([
      {
        id: one.body.data.live_version_id,
        number: 1,
        state: 'published',
        is_live: true,
        params: one.body.data.params,
        definition: { trigger: { kind: 'trigger.webhook', mode: 'sync' }, steps: expect.any(Array) },
        restored_from_version_id: null,
        test_run_id: one.body.data.last_test.run_id,
        created_at: expect.any(String),
        published_at: expect.any(String),
      },
    ]);

    const stranger = await t.createUser();
    expect((await flow(stranger, id)).body).toEqual({ message: 'Automation not found' });
    expect((await versions(stranger, id)).body).toEqual({ message: 'Automation not found' });
    expect((await flow(user, 'aut_nope')).status).toBe(404);
    expect((await t.http.get(FLOWS).set(stranger.auth)).body.total).toBe(0);
  });
});

describe('PUT /flows/{id}', () => {
  it('publishes a passing version, the linked tool follows; a failing one stays a draft and changes nothing', async () => {
    const user = await t.createUser();
    const { id, orders } = await lookupWithTool(user);
    const before = await stored(id);

    const passed = await update(user, id, {
      params: { tool_name: 'lookup_order', input_field: 'order' },
      name: 'Order lookup',
    });
    expect(passed.status).toBe(200);
    expect(passed.body).toMatchObject({
      automation_id: id,
      status: 'active',
      test: { run_status: 'SUCCEEDED' },
      response: { found: true },
      binding: { type: 'tool', bound: true },
    });
    const after = await stored(id);
    expect(after.versions).toEqual([
      { id: before.versions[0].id, number: 1, state: 'published' },
      { id: expect.any(String), number: 2, state: 'published' },
    ]);
    expect(after.automation.live_version_id).toBe(after.versions[1].id);
    expect(after.tool).toMatchObject({ name: 'lookup_order', schema: [expect.objectContaining({ name: 'order' })] });
    expect((await flow(user, id)).body.data).toMatchObject({
      name: 'Order lookup',
      live_version_number: 2,
      versions_count: 2,
      params: { tool_name: 'lookup_order', input_field: 'order' },
    });

    // An empty table fails the lookup test: version 3 stays a draft, live version and tool untouched.
    const empty = await table(user, 'Empty', []);
    const failed = await update(user, id, { params: { table_id: empty, tool_name: 'other_name' } });
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({ status: 'test_failed', test: { run_status: 'FAILED' } });
    const unchanged = await stored(id);
    expect(unchanged.versions[2]).toEqual({ id: expect.any(String), number: 3, state: 'draft' });
    expect(unchanged.automation).toEqual(after.automation);
    expect(unchanged.tool).toEqual(after.tool);
    expect((await flow(user, id)).body.data).toMatchObject({
      live_version_number: 2,
      versions_count: 3,
      last_test: { run_status: 'FAILED' },
    });

    // null removes an optional param; test: false publishes untested.
    const untested = await update(user, id, { params: { table_id: orders, tool_name: null }, test: false });
    expect(untested.body).toMatchObject({
      status: 'active_untested',
      test: { run_id: null, run_status: null, steps: [] },
    });
    expect((await stored(id)).tool).toMatchObject({ name: 'lookup_orders' });
  });

  it('answers 404 first, then the checks on the merged params, creating no version', async () => {
    const user = await t.createUser();
    const { id } = await lookupWithTool(user);
    expect((await update(user, 'aut_missing', { params: 'x' })).body).toEqual(NOT_FOUND);
    expect((await update(await t.createUser(), id, {})).body).toEqual(NOT_FOUND);
    expect((await update(user, id, { params: 'x' })).body).toMatchObject({
      error: 'invalid_params',
      params: null,
      errors: { params: expect.any(Array) },
    });
    expect((await update(user, id, { params: { key_column: null } })).body).toMatchObject({
      error: 'missing_params',
      params: [expect.objectContaining({ key: 'key_column' })],
    });
    expect((await update(user, id, { params: { table_id: 999999 } })).body).toMatchObject({
      error: 'invalid_param_choice',
      params: [expect.objectContaining({ key: 'table_id' })],
    });
    expect((await stored(id)).versions).toHaveLength(1);
  });

  it('publishes the first version of an automation whose apply test failed, enabling and binding it', async () => {
    const user = await t.createUser();
    const assistant = await createAssistant(t, user);
    receiver.respondWith(() => ({ status: 500, body: 'down' }));
    const res = await apply(user, 'post_call_webhook_forward', {
      assistant_id: assistant,
      params: { url: receiver.url('/calls') },
    });
    expect(res.body).toMatchObject({ status: 'test_failed', binding: { bound: false } });
    receiver.respondWith(() => ({ status: 200, body: '{}' }));
    const fixed = await update(user, res.body.automation_id, {});
    expect(fixed.body).toMatchObject({
      status: 'active',
      binding: { type: 'assistant_event', assistant_id: assistant, bound: true },
    });
    expect((await flow(user, res.body.automation_id)).body.data).toMatchObject({
      status: 'enabled',
      live_version_number: 2,
      versions_count: 2,
    });
  });

  it('refuses side effects without confirmation and a binding conflict with another automation', async () => {
    const user = await t.createUser();
    const assistant = await createAssistant(t, user);
    const first = (
      await apply(user, 'post_call_webhook_forward', { assistant_id: assistant, params: { url: receiver.url('/a') } })
    ).body.automation_id;
    await t.http.post(`${FLOWS}/${first}/disable`).set(user.auth);
    const second = (
      await apply(user, 'post_call_webhook_forward', { assistant_id: assistant, params: { url: receiver.url('/b') } })
    ).body.automation_id;
    expect((await update(user, second, { params: { url: receiver.url('/c') } })).body).toMatchObject({
      status: 'active',
    });
    expect((await t.http.post(`${FLOWS}/${first}/enable`).set(user.auth)).body).toEqual({
      message: `Assistant ${assistant} already has an enabled post_call_webhook_forward automation on call.ended.`,
      error: 'binding_conflict',
      params: null,
      conflicting_automation_id: second,
    });
    expect((await update(user, first, {})).body).toMatchObject({
      error: 'binding_conflict',
      conflicting_automation_id: second,
    });
    const lead = (
      await apply(user, 'lead_intake_call', {
        assistant_id: assistant,
        params: { test_phone_number: TEST_PHONE },
        test: false,
      })
    ).body.automation_id;
    expect((await update(user, lead, {})).body).toMatchObject({
      error: 'side_effects_require_confirmation',
      params: null,
    });
  });
});

describe('POST /flows/{id}/restore', () => {
  it('makes the earlier version live as a new copy, keeps a disabled automation disabled, and toggles', async () => {
    const user = await t.createUser();
    const { id } = await lookupWithTool(user);
    await update(user, id, { params: { tool_name: 'second_name' } });
    const [v1, v2] = (await stored(id)).versions;
    expect((await t.http.post(`${FLOWS}/${id}/disable`).set(user.auth)).body).toMatchObject({
      message: 'Automation disabled.',
      data: { status: 'disabled', binding: { bound: false } },
    });

    const first = await restore(user, id);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      automation_id: id,
      name: 'Mid-call lookup in a data table',
      status: 'disabled',
      restored_version_id: v1.id,
      note: 'Version 1 is live again as version 3. The automation stays disabled.',
    });
    let now = await stored(id);
    expect(now.versions).toHaveLength(3);
    expect(now.automation).toMatchObject({ live_version_id: now.versions[2].id, status: 'disabled', bound: false });
    expect(now.tool).toMatchObject({ name: 'find_order' });
    const listed = (await versions(user, id)).body.data;
    expect(listed[0]).toMatchObject({
      number: 3,
      state: 'published',
      is_live: true,
      restored_from_version_id: v1.id,
      test_run_id: null,
    });
    expect(listed[0].definition).toEqual(listed[2].definition);

    const second = await restore(user, id);
    expect(second.body).toMatchObject({
      restored_version_id: v2.id,
      note: 'Version 2 is live again as version 4. The automation stays disabled.',
    });
    now = await stored(id);
    expect(now.automation.live_version_id).toBe(now.versions[3].id);
    expect(now.tool).toMatchObject({ name: 'second_name' });
    expect((await restore(user, id)).body).toMatchObject({
      restored_version_id: now.versions[2].id,
      note: 'Version 3 is live again as version 5. The automation stays disabled.',
    });
  });

  it('answers no_previous_version and not_found', async () => {
    const user = await t.createUser();
    const { id } = await lookupWithTool(user);
    expect((await restore(user, id)).body).toEqual({
      message: 'There is no earlier published version to restore.',
      error: 'no_previous_version',
      params: null,
    });
    expect((await restore(await t.createUser(), id)).body).toEqual(NOT_FOUND);
    expect((await stored(id)).versions).toHaveLength(1);
  });

  it('rollback_failed (sandbox fault automation_rollback, or an unreadable version) changes nothing', async () => {
    const user = await t.createUser();
    const { id } = await lookupWithTool(user);
    await update(user, id, { params: { tool_name: 'second_name' } });
    const before = await stored(id);
    const armed = await t.http
      .post('/api/sandbox/faults')
      .set(user.auth)
      .send({ kind: 'automation_rollback', target_id: id });
    expect(armed.body).toEqual({ ok: true, fault: { kind: 'automation_rollback', target_id: id, remaining: 1 } });
    expect(
      (
        await t.http
          .post('/api/sandbox/faults')
          .set((await t.createUser()).auth)
          .send({ kind: 'automation_rollback', target_id: id })
      ).status,
    ).toBe(404);

    expect((await restore(user, id)).body).toEqual({
      message: 'Version 1 could not be read; nothing was changed.',
      error: 'rollback_failed',
      params: null,
    });
    expect(await stored(id)).toEqual(before);

    await sql(`UPDATE automation_versions SET definition = '{"trigger":{"kind":"nope"}}'::jsonb WHERE id = $1`, [
      before.versions[0].id,
    ]);
    expect((await restore(user, id)).body).toMatchObject({ error: 'rollback_failed' });
    expect(await stored(id)).toEqual(before);
  });

  it('publish_failed keeps the copy as a draft when a resource is gone; live version and tool unchanged', async () => {
    const user = await t.createUser();
    const { id, orders } = await lookupWithTool(user);
    const newer = await table(user, 'Newer', [{ order_number: 'B-1', status: 'new' }]);
    expect((await update(user, id, { params: { table_id: newer, tool_name: 'newer_name' } })).body.status).toBe(
      'active',
    );
    await t.http.delete(`/api/user/automate/tables/${orders}`).set(user.auth);
    const before = await stored(id);

    const res = await restore(user, id);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      message: `Version 1 was restored as draft version 3 but not published: table ${orders} no longer exists. The live version is unchanged.`,
      error: 'publish_failed',
      params: [
        { key: 'table_id', label: 'Data table', description: 'Data table to search.', required: true, example: '7' },
      ],
      draft_version_id: expect.stringMatching(/^ver_/),
    });
    const after = await stored(id);
    expect(after.automation).toEqual(before.automation);
    expect(after.tool).toEqual(before.tool);
    expect(after.versions[2]).toEqual({ id: res.body.draft_version_id, number: 3, state: 'draft' });
  });

  it('a paused run resumes on its pinned version after a restore', async () => {
    const user = await t.createUser();
    const assistant = await createAssistant(t, user);
    const applied = await apply(user, 'delayed_followup_call', {
      assistant_id: assistant,
      params: { delay_minutes: 30, test_phone_number: TEST_PHONE },
      confirm_side_effects: true,
    });
    expect(applied.body.test.run_status).toBe('PAUSED');
    const id = applied.body.automation_id;
    const pinnedVersion = (await stored(id)).versions[0].id;
    expect((await update(user, id, { params: { delay_minutes: 60 }, test: false })).body.status).toBe(
      'active_untested',
    );
    expect((await update(user, id, { params: { delay_minutes: 90 }, test: false })).body.status).toBe(
      'active_untested',
    );
    expect((await restore(user, id)).status).toBe(200);

    const resumed = await t.http
      .post(`/api/sandbox/automate/runs/${applied.body.test.run_id}/resume-now`)
      .set(user.auth);
    expect(resumed.body.run).toMatchObject({
      id: applied.body.test.run_id,
      status: 'SUCCEEDED',
      version_id: pinnedVersion,
    });
  });
});

describe('enable, disable, delete', () => {
  it('are idempotent, refuse no_live_version, and delete takes the tool and the webhook with it', async () => {
    const user = await t.createUser();
    const { id, webhookUrl } = await lookupWithTool(user);
    const toolId = (await stored(id)).automation.tool_id;
    for (let i = 0; i < 2; i++) {
      expect((await t.http.post(`${FLOWS}/${id}/disable`).set(user.auth)).body.data).toMatchObject({
        status: 'disabled',
        binding: { bound: false },
      });
    }
    expect((await t.http.post(hookPath(webhookUrl)).send({ key: 'A-1' })).body).toEqual({
      message: 'Automation is disabled.',
      error: 'automation_disabled',
      params: null,
    });
    for (let i = 0; i < 2; i++) {
      const res = await t.http.post(`${FLOWS}/${id}/enable`).set(user.auth);
      expect([res.status, res.body.message, res.body.data.status, res.body.data.binding.bound]).toEqual([
        200,
        'Automation enabled.',
        'enabled',
        true,
      ]);
    }
    expect((await t.http.post(`${FLOWS}/aut_missing/enable`).set(user.auth)).body).toEqual(NOT_FOUND);
    expect((await t.http.post(`${FLOWS}/${id}/disable`).set((await t.createUser()).auth)).body).toEqual(NOT_FOUND);

    const empty = await table(user, 'Empty', []);
    const never = (
      await apply(user, 'midcall_lookup_table', { params: { table_id: empty, key_column: 'order_number' } })
    ).body.automation_id;
    expect((await t.http.post(`${FLOWS}/${never}/enable`).set(user.auth)).body).toEqual({
      message: 'The automation has no published version.',
      error: 'no_live_version',
      params: null,
    });

    expect((await t.http.delete(`${FLOWS}/${id}`).set(user.auth)).body).toEqual({ message: 'Automation deleted.' });
    expect(await sql(`SELECT id FROM tools WHERE id = $1`, [toolId])).toEqual([]);
    expect(await sql(`SELECT tool_id FROM assistant_tools WHERE tool_id = $1`, [toolId])).toEqual([]);
    expect(
      await sql(
        `SELECT id FROM automation_versions WHERE automation_id = $1 UNION ALL SELECT id FROM automation_runs WHERE automation_id = $1`,
        [id],
      ),
    ).toEqual([]);
    expect((await t.http.post(hookPath(webhookUrl)).send({ key: 'A-1' })).body).toEqual(NOT_FOUND);
    expect((await t.http.delete(`${FLOWS}/${id}`).set(user.auth)).body).toEqual(NOT_FOUND);
  });

  it('enable answers assistant_not_found when the bound assistant was deleted', async () => {
    const user = await t.createUser();
    const assistant = await createAssistant(t, user);
    const id = (
      await apply(user, 'post_call_webhook_forward', { assistant_id: assistant, params: { url: receiver.url('/x') } })
    ).body.automation_id;
    await t.http.post(`${FLOWS}/${id}/disable`).set(user.auth);
    expect((await t.http.delete(`/api/user/assistant/${assistant}`).set(user.auth)).status).toBe(200);
    expect((await t.http.post(`${FLOWS}/${id}/enable`).set(user.auth)).body).toEqual({
      message: 'Assistant not found.',
      error: 'assistant_not_found',
      params: null,
    });
  });
});

describe('retry', () => {
  it('retries a failed run on the live version with the same input; refuses what is not retryable', async () => {
    const user = await t.createUser();
    const assistant = await createAssistant(t, user);
    receiver.respondWith(() => ({ status: 500, body: 'down' }));
    const applied = await apply(user, 'post_call_webhook_forward', {
      assistant_id: assistant,
      params: { url: receiver.url('/retried') },
    });
    const id = applied.body.automation_id;
    const failedRun = applied.body.test.run_id;
    const retry = (runId: string, body: Record<string, unknown> = {}) =>
      t.http.post(`${FLOWS}/${id}/runs/${runId}/retry`).set(user.auth).send(body);

    expect((await retry(failedRun)).body).toEqual({
      message: 'The automation has no published version.',
      error: 'no_live_version',
      params: null,
    });
    receiver.respondWith(() => ({ status: 200, body: '{}' }));
    const published = await update(user, id, { test: false });
    expect(published.body.status).toBe('active_untested');

    const res = await retry(failedRun);
    expect(res.status).toBe(201);
    expect(res.body.run).toMatchObject({
      status: 'SUCCEEDED',
      trigger: 'retry',
      retry_of_run_id: failedRun,
      is_test: true,
      version_id: (await stored(id)).automation.live_version_id,
    });
    const sent = receiver.received.filter((r) => r.path === '/retried');
    expect(sent).toHaveLength(2);
    expect(JSON.parse(sent[sent.length - 1].body)).toEqual(JSON.parse(sent[0].body));
    expect((await retry(res.body.run.id)).body).toEqual({
      message: 'Only failed runs can be retried.',
      error: 'run_not_retryable',
      params: null,
    });
    expect((await retry('run_nope')).body).toEqual({ message: 'Run not found', error: 'not_found', params: null });
    expect((await t.http.post(`${FLOWS}/aut_nope/runs/${failedRun}/retry`).set(user.auth)).body).toEqual(NOT_FOUND);
  });
});

describe('POST /api/hooks/automations/{id}/{token}', () => {
  it('answers a sync template with the respond body, JSON or form, with rate-limit headers, and records the run', async () => {
    const user = await t.createUser();
    const orders = await table(user, 'Orders', [{ order_number: 'A-1', status: 'shipped' }]);
    const applied = await apply(user, 'midcall_lookup_table', {
      params: { table_id: orders, key_column: 'order_number' },
    });
    const path = hookPath(applied.body.webhook_url);

    const res = await t.http.post(path).send({ key: ' a-1 ' });
    expect([res.status, res.body]).toEqual([200, { found: true, row: { order_number: 'A-1', status: 'shipped' } }]);
    expect(res.headers['x-ratelimit-limit']).toBe('60');
    expect(res.headers['x-ratelimit-remaining']).toBe('59');
    const form = await t.http.post(path).type('form').send('key=A-2');
    expect([form.status, form.body]).toEqual([200, { found: false }]);

    await t.runtime.container.get(TOKENS.AutomationEngine).settled();
    const runs = (await t.http.get(`${FLOWS}/${applied.body.automation_id}/runs`).set(user.auth)).body.runs;
    expect(runs).toHaveLength(3);
    const detail = (await t.http.get(`${FLOWS}/${applied.body.automation_id}/runs?run_id=${runs[1].id}`).set(user.auth))
      .body.run;
    expect(detail).toMatchObject({ trigger: 'webhook', is_test: false, status: 'SUCCEEDED' });
    const [{ input }] = await sql<{ input: unknown }>(
      `SELECT state->'input' AS input FROM automation_runs WHERE id = $1`,
      [runs[1].id],
    );
    expect(input).toEqual({ key: ' a-1 ' });
  });

  it('refuses a wrong token or id (404), a body that is not an object (422), other methods (405)', async () => {
    const user = await t.createUser();
    const orders = await table(user, 'Orders', [{ order_number: 'A-1' }]);
    const applied = await apply(user, 'midcall_lookup_table', {
      params: { table_id: orders, key_column: 'order_number' },
    });
    const path = hookPath(applied.body.webhook_url);
    const wrongToken = path.replace(/\/[0-9A-Za-z]{32}$/, `/${'x'.repeat(32)}`);
    expect((await t.http.post(wrongToken).send({})).body).toEqual(NOT_FOUND);
    expect((await t.http.post(path.replace(applied.body.automation_id, 'aut_nope')).send({})).body).toEqual(NOT_FOUND);
    const array = await t.http.post(path).set('content-type', 'application/json').send('[1,2]');
    expect([array.status, array.body]).toEqual([
      422,
      {
        message: 'The request body must be a JSON object.',
        error: 'invalid_params',
        params: null,
        errors: { body: ['The request body must be a JSON object.'] },
      },
    ]);
    expect((await t.http.get(path)).status).toBe(405);
    // An empty body is {}: the lookup has no `key` (wiring_error) and the reply carries no row.
    expect((await t.http.post(path)).status).toBe(200);
  });

  it('starts an async run (202), replays the same run for the same Idempotency-Key, and retries it', async () => {
    const user = await t.createUser();
    const assistant = await createAssistant(t, user);
    const applied = await apply(user, 'lead_intake_call', {
      assistant_id: assistant,
      params: { test_phone_number: TEST_PHONE },
      test: false,
    });
    const path = hookPath(applied.body.webhook_url);

    const first = await t.http.post(path).set('Idempotency-Key', 'lead-1').send({ phone: 'not a phone' });
    expect([first.status, first.body]).toEqual([202, { accepted: true, run_id: expect.stringMatching(/^run_/) }]);
    const replay = await t.http.post(path).set('Idempotency-Key', 'lead-1').send({ phone: 'not a phone' });
    expect([replay.status, replay.body, replay.headers['idempotent-replayed']]).toEqual([202, first.body, 'true']);
    const runsOf = () =>
      sql<{ id: string; status: string }>(`SELECT id, status FROM automation_runs WHERE automation_id = $1`, [
        applied.body.automation_id,
      ]);
    expect((await runsOf()).map((r) => r.id)).toEqual([first.body.run_id]);

    // The run was stored before the 202 and queued for a worker; a worker's job executes it.
    const [queued] = await sql<{ kind: string; payload: unknown }>(
      `SELECT kind, payload FROM scheduled_jobs WHERE key = $1`,
      [`automation-continue:${first.body.run_id}`],
    );
    expect(queued).toEqual({
      kind: 'automation.continue',
      payload: { automation_id: applied.body.automation_id, run_id: first.body.run_id },
    });
    expect(
      await t.runtime.container.get(TOKENS.AutomationEngine).continue(applied.body.automation_id, first.body.run_id),
    ).toMatchObject({ status: 'FAILED' });
    expect(
      await t.runtime.container.get(TOKENS.AutomationEngine).continue(applied.body.automation_id, first.body.run_id),
    ).toBeNull();
    const failedRun = await t.http
      .get(`${FLOWS}/${applied.body.automation_id}/runs?run_id=${first.body.run_id}`)
      .set(user.auth);
    expect(failedRun.status).toBe(200);
    const retry = (body: Record<string, unknown>) =>
      t.http.post(`${FLOWS}/${applied.body.automation_id}/runs/${first.body.run_id}/retry`).set(user.auth).send(body);
    expect(failedRun.body.run).toMatchObject({ status: 'FAILED', trigger: 'webhook', is_test: false });
    expect(failedRun.body.run.steps[1]).toMatchObject({
      name: 'validate_phone',
      status: 'FAILED',
      classification: 'step_error',
    });
    expect((await retry({})).body).toMatchObject({ error: 'side_effects_require_confirmation' });
    expect((await retry({ confirm_side_effects: 'x' })).body).toMatchObject({
      error: 'invalid_params',
      errors: { confirm_side_effects: expect.any(Array) },
    });
    const retried = await retry({ confirm_side_effects: true });
    expect(retried.body.run).toMatchObject({
      status: 'FAILED',
      trigger: 'retry',
      is_test: false,
      retry_of_run_id: first.body.run_id,
    });
  });
});
