import { TestUser } from '@voiceplane/test-env';
import { createAssistant, CUSTOMER } from '../calls/fixtures';
import { eventually } from './webhook-receiver';
import { crashTestbed, HELD, killWithAnswersHeld } from './held-answers';

/**
 * An Idempotency-Key across a real crash: the api process is SIGKILLed after a request's effect
 * committed and before its answer was sent (FAULT_HOLD_IDEMPOTENT_ANSWERS holds every idempotent
 * answer at that point). A retry with the key on the restarted api gets the answer stored in the
 * effect's own commit, and the effect happened once: one template charge, one top-up, one call, one
 * applied automation.
 *
 * Needs PostgreSQL (DATABASE_URL) and a built api (`npx tsc -b`).
 */
const runOrSkip = process.env.DATABASE_URL ? describe : describe.skip;

runOrSkip('Idempotency-Key across a SIGKILL between the effect and the answer', () => {
  const bed = crashTestbed('vp-idem-kill-');

  const post = (base: string, user: TestUser, path: string, key: string, body: object) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { ...user.auth, 'Content-Type': 'application/json', 'Idempotency-Key': key },
      body: JSON.stringify(body),
    });

  it('a retry after the restart gets the stored answer, and the charge and the top-up happened once', async () => {
    const user = await bed.api.createUser({ balance: 1 });
    const sender = await bed.api.http
      .post('/api/user/chatapp/senders')
      .set(user.auth)
      .send({ phone_number: '+4915100777001', display_name: 'Acme Support' });
    const template = await bed.api.http
      .post(`/api/user/chatapp/senders/${sender.body.data.id}/templates`)
      .set(user.auth)
      .send({ name: 'shipped', language: 'en', category: 'utility', body_text: 'Hi {{1}}, your order has shipped.' });
    expect(template.status).toBe(201);
    const send = {
      sender_id: sender.body.data.id,
      template_id: template.body.data.id,
      recipient_phone: '+14155551234',
      variables: { 1: 'Ann' },
    };
    const call = { assistant_id: await createAssistant(bed.api, user), phone_number: CUSTOMER };
    const table = (
      await bed.api.http
        .post('/api/user/automate/tables')
        .set(user.auth)
        .send({ name: 'Orders', columns: [{ name: 'order_number', type: 'string' }] })
    ).body.data.id;
    await bed.api.http
      .post(`/api/user/automate/tables/${table}/rows`)
      .set(user.auth)
      .send({ rows: [{ values: { order_number: 'A-1' } }] });
    const apply = { params: { table_id: table, key_column: 'order_number' } };

    const doomed = await bed.startApi({ FAULT_HOLD_IDEMPOTENT_ANSWERS: '1' });
    // Neither answer ever arrives: the process dies while holding them.
    const lost = [
      post(doomed.base, user, '/api/user/chatapp/send', 'send-1', send).catch(() => 'lost'),
      post(doomed.base, user, '/api/user/billing/top-ups', 'top-up-1', { amount: 50 }).catch(() => 'lost'),
      post(doomed.base, user, '/api/user/make_call', 'call-1', call).catch(() => 'lost'),
      post(doomed.base, user, '/api/user/automate/templates/midcall_lookup_table', 'apply-1', apply).catch(
        () => 'lost',
      ),
    ];
    await eventually(
      async () => doomed.output.join('').split(HELD).length - 1 === lost.length,
      'every effect to commit and its answer to be held',
      20_000,
    );
    await doomed.kill();
    expect(await Promise.all(lost)).toEqual(lost.map(() => 'lost'));

    const restarted = await bed.startApi();
    // With different spellings of the same routes: the key belongs to the route, not to how its path was written.
    const sent = await post(restarted.base, user, '/api/user/chatapp/send/', 'send-1', send);
    const topUp = await post(restarted.base, user, '/api/user/billing/TOP-UPS', 'top-up-1', { amount: 50 });

    expect(sent.status).toBe(200);
    expect(sent.headers.get('idempotent-replayed')).toBe('true');
    const sentBody = (await sent.json()) as { message_sid: string; chatapp_message_id: number };
    expect(sentBody).toMatchObject({
      success: true,
      message_sid: expect.stringMatching(/^SM[0-9a-f]{32}$/),
      status: 'queued',
    });
    expect(topUp.status).toBe(201);
    expect(topUp.headers.get('idempotent-replayed')).toBe('true');
    const topUpBody = (await topUp.json()) as { data: { id: number; checkout_url: string } };

    const messages = await bed.db.dataSource.query(`SELECT message_sid FROM chatapp_messages WHERE user_id = $1`, [
      user.id,
    ]);
    expect(messages).toEqual([{ message_sid: sentBody.message_sid }]);
    const charges = await bed.db.dataSource.query(
      `SELECT amount::float AS amount FROM ledger_entries WHERE user_id = $1 AND type = 'charge'`,
      [user.id],
    );
    expect(charges).toEqual([{ amount: -0.05 }]);
    const topUps = await bed.db.dataSource.query(`SELECT id FROM top_ups WHERE user_id = $1`, [user.id]);
    expect(topUps.map((r: { id: unknown }) => String(r.id))).toEqual([String(topUpBody.data.id)]);

    const placed = await post(restarted.base, user, '/API/USER/MAKE_CALL/', 'call-1', call);
    expect([placed.status, placed.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
    const placedBody = (await placed.json()) as { call_id: number };
    expect(placedBody).toMatchObject({ call_id: expect.any(Number), status: 'initiated' });
    const calls = await bed.db.dataSource.query(`SELECT id FROM calls WHERE user_id = $1`, [user.id]);
    expect(calls.map((r: { id: unknown }) => Number(r.id))).toEqual([placedBody.call_id]);

    const applied = await post(
      restarted.base,
      user,
      '/api/user/automate/templates/midcall_lookup_table/',
      'apply-1',
      apply,
    );
    expect([applied.status, applied.headers.get('idempotent-replayed')]).toEqual([201, 'true']);
    const appliedBody = (await applied.json()) as { automation_id: string; status: string };
    expect(appliedBody).toMatchObject({ automation_id: expect.stringMatching(/^aut_/), status: 'active' });
    const automations = await bed.db.dataSource.query(`SELECT id FROM automations WHERE user_id = $1`, [user.id]);
    expect(automations).toEqual([{ id: appliedBody.automation_id }]);
  });
  it('every other route that creates or changes on a key: the retry gets the first answer, and the effect happened once', async () => {
    const user = await bed.api.createUser({ balance: 25 });
    const owned = new Set(
      (await bed.db.dataSource.query(`SELECT phone_number FROM phone_numbers`)).map(
        (r: { phone_number: string }) => r.phone_number,
      ),
    );
    const offers = (await bed.api.http.get('/api/user/phone-numbers/search?country_code=US').set(user.auth)).body
      .data as {
      phone_number: string;
      address_requirements: string;
    }[];
    const offer = offers.find((o) => o.address_requirements === 'none' && !owned.has(o.phone_number))!;
    // A chat-app contact who wrote in and granted calls: a business-initiated call may be queued.
    const sender = (
      await bed.api.http
        .post('/api/user/chatapp/senders')
        .set(user.auth)
        .send({
          phone_number: '+4915100777002',
          display_name: 'Acme',
          assistant_id: await createAssistant(bed.api, user, { name: 'Concierge' }),
          calling_enabled: true,
        })
    ).body.data.id as number;
    await bed.api.http
      .post(`/api/user/chatapp/senders/${sender}/templates`)
      .set(user.auth)
      .send({ name: 'call_permission', language: 'en', category: 'voice_call_request', body_text: 'May we call you?' })
      .expect(201);
    const wrote = await bed.api.http
      .post('/api/sandbox/chatapp/inbound-message')
      .set(user.auth)
      .send({ sender_id: sender, from_phone: CUSTOMER, text: 'Hi' })
      .expect(200);
    await bed.api.http
      .post('/api/user/chatapp/voice/request')
      .set(user.auth)
      .send({ sender_id: sender, recipient_phone: CUSTOMER })
      .expect(200);
    await bed.api.http
      .post('/api/sandbox/chatapp/permission-reply')
      .set(user.auth)
      .send({ sender_id: sender, customer_phone: CUSTOMER, response: 'accept' })
      .expect(200);
    const email = `crash.${Date.now()}@example.test`;
    // A ping nobody receives: a failed delivery to replay.
    const ping = (
      await bed.api.http
        .post('/api/user/webhooks/test')
        .set(user.auth)
        .send({ url: 'http://127.0.0.1:9/ping' })
        .expect(200)
    ).body.data.delivery_id as string;
    // Four assistants whose status or post-call webhook is switched; the last one's webhook is on.
    const switched = [];
    for (let i = 0; i < 4; i++) switched.push(await createAssistant(bed.api, user, { name: `Switched ${i}` }));
    await bed.api.http
      .post('/api/user/assistants/enable-webhook')
      .set(user.auth)
      .send({ assistant_id: switched[3], webhook_url: 'http://127.0.0.1:9/hook' })
      .expect(200);
    const table = (
      await bed.api.http
        .post('/api/user/automate/tables')
        .set(user.auth)
        .send({ name: 'Rows', columns: [{ name: 'code', type: 'string' }] })
    ).body.data.id as number;

    /** Each route, the answer its retry must replay, and the count of what it made (one) or the state it left. */
    const routes = [
      {
        key: 'purchase-1',
        path: '/api/user/phone-numbers/purchase',
        body: { phone_number: offer.phone_number },
        status: 201,
        made: [
          `SELECT count(*)::int AS n FROM ledger_entries WHERE user_id = $1 AND reference_type = 'phone_number'`,
          [user.id],
        ],
      },
      {
        key: 'trunk-1',
        path: '/api/user/phone-numbers/sip-trunks',
        status: 201,
        body: {
          phone_number: '+4930555990001',
          sip_username: 'acme-trunk',
          sip_password: 'secret-1',
          sip_address: 'sip.carrier.example',
        },
        made: [
          `SELECT count(*)::int AS n FROM phone_numbers WHERE user_id = $1 AND phone_number = '+4930555990001'`,
          [user.id],
        ],
      },
      {
        key: 'assistant-1',
        path: '/api/user/assistant',
        body: { name: 'Crash-safe' },
        status: 201,
        made: [`SELECT count(*)::int AS n FROM assistants WHERE user_id = $1 AND name = 'Crash-safe'`, [user.id]],
      },
      {
        key: 'chat-call-1',
        path: '/api/user/chatapp/voice/call',
        body: { sender_id: sender, recipient_phone: CUSTOMER },
        status: 200,
        made: [`SELECT count(*)::int AS n FROM calls WHERE user_id = $1 AND channel = 'chatapp'`, [user.id]],
      },
      {
        key: 'ai-off-1',
        path: `/api/user/conversations/${wrote.body.conversation_uuid}/disable-ai`,
        body: {},
        status: 200,
        made: [
          `SELECT count(*)::int AS n FROM conversations WHERE uuid = $1 AND ai_enabled = false`,
          [wrote.body.conversation_uuid],
        ],
      },
      {
        key: 'account-1',
        path: '/api/admin/users',
        body: { name: 'Crash', email },
        status: 201,
        headers: bed.api.admin,
        made: [`SELECT count(*)::int AS n FROM users WHERE email = $1`, [email]],
      },
      {
        key: 'api-key-1',
        path: '/api/user/api-keys',
        body: { name: 'crash-safe' },
        status: 201,
        made: [`SELECT count(*)::int AS n FROM api_keys WHERE user_id = $1 AND name = 'crash-safe'`, [user.id]],
      },
      {
        key: 'rotate-1',
        path: '/api/user/webhooks/signing-secret/rotate',
        body: {},
        status: 200,
        made: [
          `SELECT count(*)::int AS n FROM webhook_signing_secrets WHERE user_id = $1 AND previous_secret IS NOT NULL`,
          [user.id],
        ],
      },
      {
        key: 'folder-1',
        path: '/api/user/folder',
        body: { name: 'Crash folder' },
        status: 201,
        made: [`SELECT count(*)::int AS n FROM folders WHERE user_id = $1 AND name = 'Crash folder'`, [user.id]],
      },
      {
        key: 'label-1',
        path: '/api/user/label',
        body: { name: 'Crash label' },
        status: 201,
        made: [`SELECT count(*)::int AS n FROM labels WHERE user_id = $1 AND name = 'Crash label'`, [user.id]],
      },
      {
        key: 'kb-1',
        path: '/api/user/knowledgebases',
        body: { name: 'Crash KB' },
        status: 201,
        made: [`SELECT count(*)::int AS n FROM knowledge_bases WHERE user_id = $1 AND name = 'Crash KB'`, [user.id]],
      },
      {
        key: 'tool-1',
        path: '/api/user/tools',
        status: 201,
        body: {
          name: 'crash_lookup',
          description: 'Looks an order up',
          endpoint: 'http://127.0.0.1:9/orders',
          method: 'GET',
        },
        made: [`SELECT count(*)::int AS n FROM tools WHERE user_id = $1 AND name = 'crash_lookup'`, [user.id]],
      },
      {
        key: 'connection-1',
        path: '/api/user/automate/connections',
        status: 201,
        body: { name: 'Crash CRM', kind: 'http_api', base_url: 'http://127.0.0.1:9/crm', auth_type: 'none' },
        made: [
          `SELECT count(*)::int AS n FROM automation_connections WHERE user_id = $1 AND name = 'Crash CRM'`,
          [user.id],
        ],
      },
      {
        key: 'table-1',
        path: '/api/user/automate/tables',
        body: { name: 'Crash table', columns: [{ name: 'code', type: 'string' }] },
        status: 201,
        made: [
          `SELECT count(*)::int AS n FROM automation_tables WHERE user_id = $1 AND name = 'Crash table'`,
          [user.id],
        ],
      },
      {
        key: 'rows-1',
        path: `/api/user/automate/tables/${table}/rows`,
        body: { rows: [{ values: { code: 'R-1' } }] },
        status: 201,
        made: [`SELECT count(*)::int AS n FROM automation_table_rows WHERE table_id = $1`, [table]],
      },
      {
        key: 'activate-1',
        path: `/api/user/assistant/${switched[0]}/activate`,
        body: {},
        status: 200,
        made: [`SELECT count(*)::int AS n FROM assistants WHERE id = $1 AND status = 'active'`, [switched[0]]],
      },
      {
        key: 'deactivate-1',
        path: `/api/user/assistant/${switched[1]}/deactivate`,
        body: {},
        status: 200,
        made: [`SELECT count(*)::int AS n FROM assistants WHERE id = $1 AND status = 'inactive'`, [switched[1]]],
      },
      {
        key: 'hook-on-1',
        path: '/api/user/assistants/enable-webhook',
        body: { assistant_id: switched[2], webhook_url: 'http://127.0.0.1:9/hook' },
        status: 200,
        made: [
          `SELECT count(*)::int AS n FROM assistants WHERE id = $1 AND webhook_url = 'http://127.0.0.1:9/hook'`,
          [switched[2]],
        ],
      },
      {
        key: 'hook-off-1',
        path: '/api/user/assistants/disable-webhook',
        body: { assistant_id: switched[3] },
        status: 200,
        made: [`SELECT count(*)::int AS n FROM assistants WHERE id = $1 AND webhook_url IS NULL`, [switched[3]]],
      },
      {
        key: 'admin-kb-1',
        path: `/api/admin/users/${user.id}/knowledgebases`,
        body: { name: 'Operator KB' },
        status: 201,
        headers: bed.api.admin,
        made: [`SELECT count(*)::int AS n FROM knowledge_bases WHERE user_id = $1 AND name = 'Operator KB'`, [user.id]],
      },
      {
        key: 'admin-event-1',
        path: `/api/admin/users/${user.id}/event-types`,
        body: { name: 'Crash call', duration_minutes: 30 },
        status: 201,
        headers: bed.api.admin,
        made: [`SELECT count(*)::int AS n FROM event_types WHERE user_id = $1 AND name = 'Crash call'`, [user.id]],
      },
      {
        key: 'replay-1',
        path: `/api/user/webhooks/deliveries/${ping}/replay`,
        body: {},
        status: 200,
        made: [`SELECT count(*)::int AS n FROM webhook_deliveries WHERE id = $1`, [ping]],
      },
    ] as const;
    const send = (base: string, r: (typeof routes)[number], path: string = r.path) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: {
          ...('headers' in r ? r.headers : user.auth),
          'Content-Type': 'application/json',
          'Idempotency-Key': r.key,
        },
        body: JSON.stringify(r.body),
      });

    await killWithAnswersHeld(bed, routes, send);

    const restarted = await bed.startApi();
    const replayed = new Map<string, unknown>();
    for (const r of routes) {
      const retry = await send(restarted.base, r, `${r.path}/`);
      const body = (await retry.json()) as Record<string, unknown>;
      expect([r.path, retry.status, retry.headers.get('idempotent-replayed')]).toEqual([r.path, r.status, 'true']);
      expect(body).not.toHaveProperty('error', 'idempotency_answer_lost');
      const [{ n }] = await bed.db.dataSource.query(r.made[0], [...r.made[1]]);
      expect([r.path, n]).toEqual([r.path, 1]);
      replayed.set(r.key, body);
    }
    // Secrets shown once come back as they were made: the key authenticates, the rotated secret is the one in force.
    const token = (replayed.get('api-key-1') as { api_key: { token: string } }).api_key.token;
    expect(
      (await fetch(`${restarted.base}/api/user/me`, { headers: { Authorization: `Bearer ${token}` } })).status,
    ).toBe(200);
    const current = (await (
      await fetch(`${restarted.base}/api/user/webhooks/signing-secret`, { headers: user.auth })
    ).json()) as { secret: string };
    expect(current.secret).toBe((replayed.get('rotate-1') as { secret: string }).secret);
  });
});
