import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApi, createTestDatabase, TestApi, TestDatabase, TestUser } from '@voiceplane/test-env';
import { createAssistant, CUSTOMER } from '../calls/fixtures';
import { ApiProcess } from './api-process';
import { eventually } from './webhook-receiver';

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
const HELD = 'fault: an idempotent answer is held after its effect committed';

runOrSkip('Idempotency-Key across a SIGKILL between the effect and the answer', () => {
  let db: TestDatabase;
  let api: TestApi;
  const dataDir = mkdtempSync(join(tmpdir(), 'vp-idem-kill-'));
  const started: ApiProcess[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    api = await createTestApi({ db, startBackground: false });
  });

  afterAll(async () => {
    for (const child of started) await child.kill().catch(() => undefined);
    await api.close();
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function startApi(env: Record<string, string> = {}): Promise<ApiProcess> {
    const child = await ApiProcess.start({ DATABASE_URL: db.url, VOICEPLANE_DATA_DIR: dataDir, ALLOW_PRIVATE_TARGETS: '1', ...env });
    started.push(child);
    return child;
  }

  const post = (base: string, user: TestUser, path: string, key: string, body: object) => fetch(`${base}${path}`, {
    method: 'POST', headers: { ...user.auth, 'Content-Type': 'application/json', 'Idempotency-Key': key }, body: JSON.stringify(body),
  });

  it('a retry after the restart gets the stored answer, and the charge and the top-up happened once', async () => {
    const user = await api.createUser({ balance: 1 });
    const sender = await api.http.post('/api/user/chatapp/senders').set(user.auth).send({ phone_number: '+4915100777001', display_name: 'Acme Support' });
    const template = await api.http.post(`/api/user/chatapp/senders/${sender.body.data.id}/templates`).set(user.auth)
      .send({ name: 'shipped', language: 'en', category: 'utility', body_text: 'Hi {{1}}, your order has shipped.' });
    expect(template.status).toBe(201);
    const send = { sender_id: sender.body.data.id, template_id: template.body.data.id, recipient_phone: '+14155551234', variables: { 1: 'Ann' } };
    const call = { assistant_id: await createAssistant(api, user), phone_number: CUSTOMER };
    const table = (await api.http.post('/api/user/automate/tables').set(user.auth).send({ name: 'Orders', columns: [{ name: 'order_number', type: 'string' }] })).body.data.id;
    await api.http.post(`/api/user/automate/tables/${table}/rows`).set(user.auth).send({ rows: [{ values: { order_number: 'A-1' } }] });
    const apply = { params: { table_id: table, key_column: 'order_number' } };

    const doomed = await startApi({ FAULT_HOLD_IDEMPOTENT_ANSWERS: '1' });
    // Neither answer ever arrives: the process dies while holding them.
    const lost = [
      post(doomed.base, user, '/api/user/chatapp/send', 'send-1', send).catch(() => 'lost'),
      post(doomed.base, user, '/api/user/billing/top-ups', 'top-up-1', { amount: 50 }).catch(() => 'lost'),
      post(doomed.base, user, '/api/user/make_call', 'call-1', call).catch(() => 'lost'),
      post(doomed.base, user, '/api/user/automate/templates/midcall_lookup_table', 'apply-1', apply).catch(() => 'lost'),
    ];
    await eventually(async () => doomed.output.join('').split(HELD).length - 1 === lost.length, 'every effect to commit and its answer to be held', 20_000);
    await doomed.kill();
    expect(await Promise.all(lost)).toEqual(lost.map(() => 'lost'));

    const restarted = await startApi();
    // With different spellings of the same routes: the key belongs to the route, not to how its path was written.
    const sent = await post(restarted.base, user, '/api/user/chatapp/send/', 'send-1', send);
    const topUp = await post(restarted.base, user, '/api/user/billing/TOP-UPS', 'top-up-1', { amount: 50 });

    expect(sent.status).toBe(200);
    expect(sent.headers.get('idempotent-replayed')).toBe('true');
    const sentBody = await sent.json() as { message_sid: string; chatapp_message_id: number };
    expect(sentBody).toMatchObject({ success: true, message_sid: expect.stringMatching(/^SM[0-9a-f]{32}$/), status: 'queued' });
    expect(topUp.status).toBe(201);
    expect(topUp.headers.get('idempotent-replayed')).toBe('true');
    const topUpBody = await topUp.json() as { data: { id: number; checkout_url: string } };

    const messages = await db.dataSource.query(`SELECT message_sid FROM chatapp_messages WHERE user_id = $1`, [user.id]);
    expect(messages).toEqual([{ message_sid: sentBody.message_sid }]);
    const charges = await db.dataSource.query(`SELECT amount::float AS amount FROM ledger_entries WHERE user_id = $1 AND type = 'charge'`, [user.id]);
    expect(charges).toEqual([{ amount: -0.05 }]);
    const topUps = await db.dataSource.query(`SELECT id FROM top_ups WHERE user_id = $1`, [user.id]);
    expect(topUps.map((r: { id: unknown }) => String(r.id))).toEqual([String(topUpBody.data.id)]);

    const placed = await post(restarted.base, user, '/API/USER/MAKE_CALL/', 'call-1', call);
    expect([placed.status, placed.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
    const placedBody = await placed.json() as { call_id: number };
    expect(placedBody).toMatchObject({ call_id: expect.any(Number), status: 'initiated' });
    const calls = await db.dataSource.query(`SELECT id FROM calls WHERE user_id = $1`, [user.id]);
    expect(calls.map((r: { id: unknown }) => Number(r.id))).toEqual([placedBody.call_id]);

    const applied = await post(restarted.base, user, '/api/user/automate/templates/midcall_lookup_table/', 'apply-1', apply);
    expect([applied.status, applied.headers.get('idempotent-replayed')]).toEqual([201, 'true']);
    const appliedBody = await applied.json() as { automation_id: string; status: string };
    expect(appliedBody).toMatchObject({ automation_id: expect.stringMatching(/^aut_/), status: 'active' });
    const automations = await db.dataSource.query(`SELECT id FROM automations WHERE user_id = $1`, [user.id]);
    expect(automations).toEqual([{ id: appliedBody.automation_id }]);
  });
});
