import { createHash } from 'node:crypto';
import { TOKENS } from '@voiceplane/application';
import { createTestApi, eventually, TestApi, TestUser } from '@voiceplane/test-env';

describe('Idempotency-Key', () => {
  let t: TestApi;
  let u: TestUser;
  beforeAll(async () => {
    t = await createTestApi();
    u = await t.createUser();
  });
  afterAll(async () => t.close());

  const keyCount = async () => (await t.http.get('/api/user/api-keys').set(u.auth)).body.api_keys.length;

  it('replays the stored answer for the same key and body, without a second side effect', async () => {
    const before = await keyCount();
    const first = await t.http
      .post('/api/user/api-keys')
      .set(u.auth)
      .set('Idempotency-Key', 'create-ci-1')
      .send({ name: 'ci' });
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await t.http
      .post('/api/user/api-keys')
      .set(u.auth)
      .set('Idempotency-Key', 'create-ci-1')
      .send({ name: 'ci' });
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await keyCount()).toBe(before + 1);
  });

  it('refuses the same key with another body (422) and changes nothing', async () => {
    await t.http.post('/api/user/api-keys').set(u.auth).set('Idempotency-Key', 'k-2').send({ name: 'a' });
    const before = await keyCount();
    const res = await t.http.post('/api/user/api-keys').set(u.auth).set('Idempotency-Key', 'k-2').send({ name: 'b' });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      message: 'This Idempotency-Key was already used with a different request body.',
      error: 'idempotency_key_reused',
    });
    expect(await keyCount()).toBe(before);
  });

  it('answers 409 while the first request with the key is still running', async () => {
    const gate = deferred();
    const create = t.runtime.container.get<{ createApiKey: (...a: unknown[]) => Promise<unknown> }>(
      TOKENS.CredentialRepository,
    );
    const original = create.createApiKey.bind(create);
    create.createApiKey = async (...args: unknown[]) => {
      await gate.promise;
      return original(...args);
    };
    try {
      const slow = t.http
        .post('/api/user/api-keys')
        .set(u.auth)
        .set('Idempotency-Key', 'k-3')
        .send({ name: 'slow' })
        .then((r) => r);
      await eventually(
        async () =>
          (await t.db.dataSource.query(`SELECT 1 FROM idempotency_keys WHERE scope LIKE '%:k-3'`)).length === 1,
        'the first request to hold the key',
      );
      const concurrent = await t.http
        .post('/api/user/api-keys')
        .set(u.auth)
        .set('Idempotency-Key', 'k-3')
        .send({ name: 'slow' });
      expect(concurrent.status).toBe(409);
      expect(concurrent.body).toEqual({
        message: 'A request with this Idempotency-Key is still being processed.',
        error: 'idempotency_key_in_use',
      });
      gate.resolve();
      expect((await slow).status).toBe(201);
    } finally {
      // Never leave the first request parked behind the gate: it would hold its connection past the file.
      gate.resolve();
      create.createApiKey = original;
    }
  });

  it('stores 4xx answers but not 5xx; keys are scoped per user', async () => {
    const invalid = await t.http.post('/api/user/api-keys').set(u.auth).set('Idempotency-Key', 'k-4').send({});
    expect(invalid.status).toBe(422);
    const replay = await t.http.post('/api/user/api-keys').set(u.auth).set('Idempotency-Key', 'k-4').send({});
    expect(replay.headers['idempotent-replayed']).toBe('true');
    const other = await t.createUser();
    const otherUser = await t.http
      .post('/api/user/api-keys')
      .set(other.auth)
      .set('Idempotency-Key', 'k-4')
      .send({ name: 'mine' });
    expect(otherUser.status).toBe(201);
    expect(otherUser.headers['idempotent-replayed']).toBeUndefined();
  });

  it('keeps no readable answer at rest: a stored API key token is sealed, and the replay still shows it', async () => {
    const first = await t.http
      .post('/api/user/api-keys')
      .set(u.auth)
      .set('Idempotency-Key', 'sealed-1')
      .send({ name: 'sealed' });
    expect(first.status).toBe(201);
    const token = first.body.api_key.token as string;
    expect(token).toMatch(/^vp_/);

    const rows = await t.db.dataSource.query(`SELECT response_body FROM idempotency_keys`);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(JSON.stringify(row)).not.toContain(token);
    const table = JSON.stringify(await t.db.dataSource.query(`SELECT * FROM idempotency_keys`));
    expect(table).not.toContain(token.slice(3));

    const replay = await t.http
      .post('/api/user/api-keys')
      .set(u.auth)
      .set('Idempotency-Key', 'sealed-1')
      .send({ name: 'sealed' });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.api_key.token).toBe(token);
  });

  it('processes a retry again once the claim of a request that died has lost its lease', async () => {
    const body = JSON.stringify({ name: 'after-crash' });
    const scope = `u${u.id}:POST:/api/user/api-keys:crashed-1`;
    const fingerprint = createHash('sha256').update(body).digest('hex');
    // What a process killed mid-request leaves behind: an in-flight claim nobody renews.
    await t.db.dataSource.query(
      `INSERT INTO idempotency_keys (scope, fingerprint, state, created_at, expires_at, lease_expires_at)
       VALUES ($1, $2, 'in_flight', now() - interval '2 minutes', now() + interval '1 day', now() - interval '1 minute')`,
      [scope, fingerprint],
    );
    const before = await keyCount();

    const retry = await t.http
      .post('/api/user/api-keys')
      .set(u.auth)
      .set('Idempotency-Key', 'crashed-1')
      .set('Content-Type', 'application/json')
      .send(body);

    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(await keyCount()).toBe(before + 1);
  });

  it('takes a retry as new when its stored answer was sealed under another SECRETS_KEY', async () => {
    const body = JSON.stringify({ name: 'other-key' });
    await t.db.dataSource.query(
      `INSERT INTO idempotency_keys (scope, fingerprint, state, response_status, response_body, created_at, expires_at)
       VALUES ($1, $2, 'done', 201, 'v1.c2VhbGVkIHVuZGVyIGFub3RoZXIga2V5', now(), now() + interval '1 day')`,
      [`u${u.id}:POST:/api/user/api-keys:resealed-1`, createHash('sha256').update(body).digest('hex')],
    );
    const retry = await t.http
      .post('/api/user/api-keys')
      .set(u.auth)
      .set('Idempotency-Key', 'resealed-1')
      .set('Content-Type', 'application/json')
      .send(body);
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    const replay = await t.http
      .post('/api/user/api-keys')
      .set(u.auth)
      .set('Idempotency-Key', 'resealed-1')
      .set('Content-Type', 'application/json')
      .send(body);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(retry.body);
  });

  it('never carries out again a request whose effect committed when its answer was lost (a crash in between)', async () => {
    // A chat-app send commits its reservation before the chat app is called and stores its answer
    // with the charge after: a process that dies in between leaves the key marked committed with
    // no answer. That state is made here (a synthetic fault) from a send that went through.
    const account = await t.createUser({ balance: 1 });
    const sender = await t.http
      .post('/api/user/chatapp/senders')
      .set(account.auth)
      .send({ phone_number: '+4915100777301', display_name: 'Acme Support' });
    const template = await t.http
      .post(`/api/user/chatapp/senders/${sender.body.data.id}/templates`)
      .set(account.auth)
      .send({ name: 'shipped', language: 'en', category: 'utility', body_text: 'Hi {{1}}, your order has shipped.' });
    const send = () =>
      t.http
        .post('/api/user/chatapp/send')
        .set(account.auth)
        .set('Idempotency-Key', 'send-after-crash')
        .send({
          sender_id: sender.body.data.id,
          template_id: template.body.data.id,
          recipient_phone: '+14155551234',
          variables: { 1: 'Ann' },
        });
    expect((await send()).status).toBe(200);
    await t.db.dataSource.query(
      `UPDATE idempotency_keys SET state = 'committed', response_status = NULL, response_body = NULL,
         lease_expires_at = now() - interval '1 second' WHERE scope LIKE $1`,
      [`u${account.id}:%:send-after-crash`],
    );

    const retry = await send();
    expect([retry.status, retry.body]).toEqual([
      409,
      {
        message:
          'The request with this Idempotency-Key was carried out, but its answer was lost. It will not be carried out again.',
        error: 'idempotency_answer_lost',
      },
    ]);
    const charges = await t.db.dataSource.query(
      `SELECT count(*)::int AS n FROM ledger_entries WHERE user_id = $1 AND type = 'charge'`,
      [account.id],
    );
    expect(charges[0].n).toBe(1);
    const messages = await t.db.dataSource.query(`SELECT count(*)::int AS n FROM chatapp_messages WHERE user_id = $1`, [
      account.id,
    ]);
    expect(messages[0].n).toBe(1);
  });

  it('scopes a key by the route the router dispatches to: other spellings of one path replay, other ids do not', async () => {
    const account = await t.createUser({ balance: 1 });
    const credit = (path: string) =>
      t.http.post(path).set(t.admin).set('Idempotency-Key', 'credit-spelled').send({ amount: 2, note: 'spelled' });
    const first = await credit(`/api/admin/users/${account.id}/balance`);
    expect(first.status).toBeLessThan(300);
    for (const spelling of [
      `/api/admin/users/${account.id}/balance/`,
      `/API/ADMIN/USERS/${account.id}/BALANCE`,
      `/api/Admin/users/${account.id}/Balance/`,
    ]) {
      const again = await credit(spelling);
      expect([spelling, again.status, again.headers['idempotent-replayed']]).toEqual([spelling, first.status, 'true']);
      expect(again.body).toEqual(first.body);
    }
    const [{ balance }] = await t.db.dataSource.query(`SELECT balance::float AS balance FROM users WHERE id = $1`, [
      account.id,
    ]);
    expect(balance).toBe(3);

    const other = await t.createUser({ balance: 1 });
    const elsewhere = await credit(`/api/admin/users/${other.id}/balance`);
    expect(elsewhere.headers['idempotent-replayed']).toBeUndefined();
    const [{ balance: otherBalance }] = await t.db.dataSource.query(
      `SELECT balance::float AS balance FROM users WHERE id = $1`,
      [other.id],
    );
    expect(otherBalance).toBe(3);
  });

  it('a refused request (nothing committed) is answered and stored as before', async () => {
    const account = await t.createUser({ balance: 1 });
    const refused = await t.http
      .post(`/api/admin/users/${account.id}/balance`)
      .set(t.admin)
      .set('Idempotency-Key', 'credit-refused')
      .send({ amount: 1e9, note: 'x' });
    expect(refused.status).toBe(422);
    const [row] = await t.db.dataSource.query(`SELECT state FROM idempotency_keys WHERE scope LIKE '%credit-refused'`);
    expect(row.state).toBe('done');
  });

  it.each([[''], ['x'.repeat(256)], ['naïve']])('an invalid key (%p) → 400', async (key) => {
    const res = await t.http.post('/api/user/api-keys').set(u.auth).set('Idempotency-Key', key).send({ name: 'x' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'Invalid Idempotency-Key header.' });
  });
});

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
