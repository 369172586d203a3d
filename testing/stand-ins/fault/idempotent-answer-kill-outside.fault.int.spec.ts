import { TOKENS } from '@voiceplane/application';
import { TestUser } from '@voiceplane/test-env';
import { createAssistant, CUSTOMER } from '../calls/fixtures';
import { WebhookReceiver } from './webhook-receiver';
import { crashTestbed, killWithAnswersHeld } from './held-answers';

/**
 * The routes idempotent-answer-kill.fault.int.spec.ts does not send, across the same real crash:
 * the api process (FAULT_HOLD_IDEMPOTENT_ANSWERS=1) holds every idempotent answer after its effect
 * committed and is SIGKILLed holding them. A retry on the restarted api gets the first answer, and
 * the effect happened once — for the routes whose answer comes from an outside call (a connection
 * check, a tool test, a webhook ping, a provider's registration) the outside call was made once too,
 * counted by a receiver on 127.0.0.1. Render changes nothing: its retry is computed again.
 * Logout's retry is refused 401, as any replay of it is: the session it ended no longer authenticates.
 *
 * Needs PostgreSQL (DATABASE_URL) and a built api (`npx tsc -b`).
 */
const runOrSkip = process.env.DATABASE_URL ? describe : describe.skip;
const FLOWS = '/api/user/automate/flows';
const SECOND_CUSTOMER = '+14155559876';

runOrSkip('Idempotency-Key across a SIGKILL: routes answered from outside calls, runs and sessions', () => {
  const bed = crashTestbed('vp-idem-kill-outside-');
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start(() => ({ status: 200, body: '{"ok":true}' }));
  });

  afterAll(async () => {
    await receiver.close();
  });

  const count = async (sql: string, params: unknown[]): Promise<number> =>
    (await bed.db.dataSource.query(sql, params))[0].n as number;
  const hits = (path: string) => receiver.received.filter((r) => r.path === path).length;
  const post = (user: TestUser, path: string, body: object = {}) => bed.api.http.post(path).set(user.auth).send(body);

  /** A lookup automation on a table, published by its passing test; its hook answers in sync. */
  let tables = 0;
  async function lookup(user: TestUser, assistant: number) {
    tables += 1;
    const table = (
      await post(user, '/api/user/automate/tables', {
        name: `Orders ${tables}`,
        columns: [
          { name: 'order_number', type: 'string' },
          { name: 'status', type: 'string' },
        ],
      })
    ).body.data.id as number;
    await post(user, `/api/user/automate/tables/${table}/rows`, {
      rows: [{ values: { order_number: 'A-1', status: 'shipped' } }],
    });
    const applied = await post(user, '/api/user/automate/templates/midcall_lookup_table', {
      assistant_id: assistant,
      params: { table_id: table, key_column: 'order_number', tool_name: `find_order_${tables}` },
    }).expect(201);
    return { id: applied.body.automation_id as string, hook: new URL(applied.body.webhook_url).pathname };
  }

  it('each retry after the restart gets the first answer, and each effect and outside call happened once', async () => {
    const user = await bed.api.createUser({ balance: 25 });
    const assistant = await createAssistant(bed.api, user, { name: 'Concierge' });
    const runsOf = (id: string) =>
      count(`SELECT count(*)::int AS n FROM automation_runs WHERE automation_id = $1`, [id]);

    // Switched on, switched off, and one restored to its first version (a second one was published).
    const toEnable = await lookup(user, assistant);
    await post(user, `${FLOWS}/${toEnable.id}/disable`).expect(200);
    const toDisable = await lookup(user, assistant);
    const toRestore = await lookup(user, assistant);
    const synced = await lookup(user, assistant);
    await bed.api.http
      .put(`${FLOWS}/${toRestore.id}`)
      .set(user.auth)
      .send({ params: { tool_name: 'second_name' } })
      .expect(200);
    // An async intake whose run failed (the phone is not one): its retry, and another intake's trigger.
    const intake = async () =>
      (
        await post(user, '/api/user/automate/templates/lead_intake_call', {
          assistant_id: assistant,
          params: { test_phone_number: CUSTOMER },
          test: false,
        }).expect(201)
      ).body as { automation_id: string; webhook_url: string };
    const failing = await intake();
    const queued = await bed.api.http
      .post(new URL(failing.webhook_url).pathname)
      .send({ phone: 'not a phone' })
      .expect(202);
    const failed = await bed.api.runtime.container
      .get(TOKENS.AutomationEngine)
      .continue(failing.automation_id, queued.body.run_id);
    expect(failed).toMatchObject({ status: 'FAILED' });
    const triggered = await intake();
    // A chat-app sender that may call, a contact who wrote in: a permission request to send.
    const sender = (
      await post(user, '/api/user/chatapp/senders', {
        phone_number: '+4915100777201',
        display_name: 'Acme',
        assistant_id: assistant,
        calling_enabled: true,
      }).expect(201)
    ).body.data.id as number;
    await post(user, `/api/user/chatapp/senders/${sender}/templates`, {
      name: 'call_permission',
      language: 'en',
      category: 'voice_call_request',
      body_text: 'May we call you?',
    }).expect(201);
    await post(user, '/api/sandbox/chatapp/inbound-message', {
      sender_id: sender,
      from_phone: SECOND_CUSTOMER,
      text: 'Hi',
    }).expect(200);
    const connection = (
      await post(user, '/api/user/automate/connections', {
        name: 'Checked CRM',
        kind: 'http_api',
        base_url: receiver.url('/crm'),
        auth_type: 'none',
      }).expect(201)
    ).body.data.id as number;
    const tool = (
      await post(user, '/api/user/tools', {
        name: 'crash_tested',
        description: 'Looks an order up',
        endpoint: receiver.url('/tool'),
        method: 'GET',
      }).expect(201)
    ).body.data.id as number;
    const kb = (await post(user, '/api/user/knowledgebases', { name: 'Docs' }).expect(201)).body.data.id as number;
    // An account with a password: one login to make, one session to end.
    const email = `signed.${Date.now()}@example.test`;
    await bed.api.http
      .post('/api/admin/users')
      .set(bed.api.admin)
      .send({ name: 'Signed', email, password: 'crash-password-1' })
      .expect(201);
    const login = { email, password: 'crash-password-1' };
    const session = (await bed.api.http.post('/api/user/login').send(login).expect(200)).body.token as string;
    const signedIn = { Authorization: `Bearer ${session}` };
    const rendered = await post(user, `/api/user/tools/${tool}/render`, { params: {} }).expect(200);

    type Route = {
      key: string;
      path: string;
      body: object;
      status: number;
      headers?: Record<string, string>;
      made: () => Promise<number>;
    };
    const routes: Route[] = [
      {
        key: 'credit-1',
        path: `/api/admin/users/${user.id}/balance`,
        body: { amount: 5, note: 'crash credit' },
        status: 200,
        headers: bed.api.admin,
        made: () =>
          count(`SELECT count(*)::int AS n FROM ledger_entries WHERE user_id = $1 AND description = 'crash credit'`, [
            user.id,
          ]),
      },
      {
        key: 'enable-1',
        path: `${FLOWS}/${toEnable.id}/enable`,
        body: {},
        status: 200,
        made: () =>
          count(`SELECT count(*)::int AS n FROM automations WHERE id = $1 AND status = 'enabled'`, [toEnable.id]),
      },
      {
        key: 'disable-1',
        path: `${FLOWS}/${toDisable.id}/disable`,
        body: {},
        status: 200,
        made: () =>
          count(`SELECT count(*)::int AS n FROM automations WHERE id = $1 AND status = 'disabled'`, [toDisable.id]),
      },
      {
        key: 'restore-1',
        path: `${FLOWS}/${toRestore.id}/restore`,
        body: {},
        status: 200,
        // Two published versions and the restored copy.
        made: async () =>
          (await count(`SELECT count(*)::int AS n FROM automation_versions WHERE automation_id = $1`, [toRestore.id])) -
          2,
      },
      {
        key: 'permission-1',
        path: '/api/user/chatapp/voice/request',
        body: { sender_id: sender, recipient_phone: SECOND_CUSTOMER },
        status: 200,
        made: () =>
          count(
            `SELECT count(*)::int AS n FROM chatapp_messages WHERE user_id = $1 AND to_phone = $2 AND direction = 'outbound'`,
            [user.id, SECOND_CUSTOMER],
          ),
      },
      {
        key: 'sender-1',
        path: '/api/user/chatapp/senders',
        body: { phone_number: '+4915100777202', display_name: 'Crash sender' },
        status: 201,
        made: () => count(`SELECT count(*)::int AS n FROM chatapp_senders WHERE phone_number = '+4915100777202'`, []),
      },
      {
        key: 'template-1',
        path: `/api/user/chatapp/senders/${sender}/templates`,
        body: { name: 'crash_notice', language: 'en', category: 'utility', body_text: 'Hello {{1}}.' },
        status: 201,
        made: () =>
          count(`SELECT count(*)::int AS n FROM chatapp_templates WHERE sender_id = $1 AND name = 'crash_notice'`, [
            sender,
          ]),
      },
      {
        key: 'check-1',
        path: `/api/user/automate/connections/${connection}/check`,
        body: {},
        status: 200,
        made: async () => hits('/crm'),
      },
      {
        key: 'tool-test-1',
        path: `/api/user/tools/${tool}/test`,
        body: { params: {} },
        status: 200,
        made: async () => hits('/tool'),
      },
      {
        key: 'ping-1',
        path: '/api/user/webhooks/test',
        body: { url: receiver.url('/ping') },
        status: 200,
        made: async () =>
          Math.min(
            hits('/ping'),
            await count(
              `SELECT count(*)::int AS n FROM webhook_deliveries WHERE user_id = $1 AND event_type = 'ping'`,
              [user.id],
            ),
          ),
      },
      {
        key: 'retry-1',
        path: `${FLOWS}/${failing.automation_id}/runs/${queued.body.run_id}/retry`,
        body: { confirm_side_effects: true },
        status: 201,
        made: async () => (await runsOf(failing.automation_id)) - 1,
      },
      {
        key: 'hook-async-1',
        path: new URL(triggered.webhook_url).pathname,
        body: { phone: 'not a phone' },
        status: 202,
        headers: {},
        made: () => runsOf(triggered.automation_id),
      },
      {
        key: 'hook-sync-1',
        path: synced.hook,
        body: { key: 'A-1' },
        status: 200,
        headers: {},
        // Its apply's passing test is a run too.
        made: async () => (await runsOf(synced.id)) - 1,
      },
      {
        key: 'document-1',
        path: `/api/user/knowledgebases/${kb}/documents`,
        body: { name: 'Crash notes', type: 'text', content: 'Orders ship within two days.' },
        status: 201,
        made: () => count(`SELECT count(*)::int AS n FROM knowledge_base_documents WHERE knowledge_base_id = $1`, [kb]),
      },
      {
        key: 'login-1',
        path: '/api/user/login',
        body: login,
        status: 200,
        headers: {},
        // The session of the setup and this one.
        made: async () =>
          (await count(
            `SELECT count(*)::int AS n FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.email = $1`,
            [email],
          )) - 1,
      },
    ];
    const send = (
      base: string,
      r: { key: string; path: string; body: object; headers?: Record<string, string> },
      path = r.path,
    ) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: { ...(r.headers ?? user.auth), 'Content-Type': 'application/json', 'Idempotency-Key': r.key },
        body: JSON.stringify(r.body),
      });
    const logout = { key: 'logout-1', path: '/api/user/logout', body: {}, headers: signedIn };
    const render = { key: 'render-1', path: `/api/user/tools/${tool}/render`, body: { params: {} } };

    await killWithAnswersHeld(bed, [...routes, logout, render], send, 30_000);

    const restarted = await bed.startApi();
    const replayed = new Map<string, Record<string, unknown>>();
    for (const r of routes) {
      const retry = await send(restarted.base, r, `${r.path}/`);
      const body = (await retry.json()) as Record<string, unknown>;
      expect([r.path, retry.status, retry.headers.get('idempotent-replayed')]).toEqual([r.path, r.status, 'true']);
      expect([r.path, await r.made()]).toEqual([r.path, 1]);
      replayed.set(r.key, body);
    }
    // The answers are the first ones: the ids they name are what was made.
    expect(replayed.get('credit-1')).toMatchObject({ total_balance: 30 });
    expect(replayed.get('enable-1')).toMatchObject({ data: { status: 'enabled' } });
    expect(replayed.get('restore-1')).toMatchObject({
      automation_id: toRestore.id,
      note: expect.stringContaining('version 3'),
    });
    expect(replayed.get('permission-1')).toMatchObject({ success: true, customer_phone: SECOND_CUSTOMER });
    expect(replayed.get('check-1')).toMatchObject({ data: { id: connection, status: 'connected' } });
    expect(replayed.get('tool-test-1')).toMatchObject({ data: { result: { status_code: 200 } } });
    const ping = replayed.get('ping-1') as { data: { delivery_id: string; ok: boolean } };
    expect(ping.data.ok).toBe(true);
    expect(
      await count(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE id = $1`, [ping.data.delivery_id]),
    ).toBe(1);
    const retried = replayed.get('retry-1') as { run: { id: string; retry_of_run_id: string } };
    expect(retried.run.retry_of_run_id).toBe(queued.body.run_id);
    expect(await count(`SELECT count(*)::int AS n FROM automation_runs WHERE id = $1`, [retried.run.id])).toBe(1);
    const accepted = replayed.get('hook-async-1') as { run_id: string };
    expect(await count(`SELECT count(*)::int AS n FROM automation_runs WHERE id = $1`, [accepted.run_id])).toBe(1);
    expect(replayed.get('hook-sync-1')).toEqual({ found: true, row: { order_number: 'A-1', status: 'shipped' } });
    const token = (replayed.get('login-1') as { token: string }).token;
    expect(
      (await fetch(`${restarted.base}/api/user/me`, { headers: { Authorization: `Bearer ${token}` } })).status,
    ).toBe(200);

    // Logout: ended once; its retry, like any replay of it, finds the session gone.
    const afterLogout = await send(restarted.base, logout);
    expect(afterLogout.status).toBe(401);
    expect(
      await count(
        `SELECT count(*)::int AS n FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.email = $1 AND s.revoked_at IS NOT NULL`,
        [email],
      ),
    ).toBe(1);
    // Render: nothing committed, so nothing was stored; once the dead process's lease lapsed, the retry is computed again.
    await bed.db.dataSource.query(
      `UPDATE idempotency_keys SET lease_expires_at = now() - interval '1 second' WHERE scope LIKE $1`,
      [`u${user.id}:%:render-1`],
    );
    const again = await send(restarted.base, render);
    expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([200, null]);
    expect(await again.json()).toEqual(rendered.body);
  });
});
