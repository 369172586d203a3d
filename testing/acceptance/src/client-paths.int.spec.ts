import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';

/**
 * The paths the public clients call (the MCP server, the OpenClaw plugin), through the composed api: aliases
 * answer exactly what their canonical route answers, literal segments are never read as ids, and the sandbox
 * controls and provider ingress answer in their own families.
 */
let t: TestApi;
let owner: TestUser;
let stranger: TestUser;
beforeAll(async () => {
  t = await createTestApi({ startBackground: false });
  owner = await t.createUser();
  stranger = await t.createUser();
});
afterAll(async () => t.close());

const NOT_FOUND = { message: 'Not found.' };
const answerOf = (res: { status: number; body: unknown }) => ({ status: res.status, body: res.body });
const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  t.db.dataSource.query(text, params) as Promise<T[]>;
let phones = 0;
/** A SIP number row of the account (no provider involved), newest last. */
const insertNumber = async (user: TestUser) => {
  phones += 1;
  const phone = `+1415555${String(process.pid % 1000).padStart(3, '0')}${phones}`;
  return Number(
    (
      await sql<{ id: string }>(
        `INSERT INTO phone_numbers (user_id, phone_number, type, country_code) VALUES ($1, $2, 'sip', 'US') RETURNING id`,
        [user.id, phone],
      )
    )[0].id,
  );
};
const createAssistant = async (user: TestUser, body: Record<string, unknown>) => {
  const res = await t.http.post('/api/user/assistant').set(user.auth).send(body);
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.id as number;
};

describe('GET /api/user/assistants/{id} (OpenClaw’s get)', () => {
  it('answers what GET /api/user/assistant/{id} answers, to the owner and to a stranger, with the rate-limit headers', async () => {
    const id = await createAssistant(owner, { name: 'Front desk' });
    const alias = await t.http.get(`/api/user/assistants/${id}`).set(owner.auth);
    const canonical = await t.http.get(`/api/user/assistant/${id}`).set(owner.auth);
    expect(answerOf(alias)).toEqual(answerOf(canonical));
    expect(alias.body.data).toEqual(expect.objectContaining({ id, name: 'Front desk' }));
    expect(alias.headers['x-ratelimit-limit']).toBe('600');
    const foreign = await t.http.get(`/api/user/assistants/${id}`).set(stranger.auth);
    expect(answerOf(foreign)).toEqual(answerOf(await t.http.get(`/api/user/assistant/${id}`).set(stranger.auth)));
    expect(foreign.status).toBe(404);
    expect(answerOf(await t.http.get(`/api/user/assistants/${id}`))).toEqual({
      status: 401,
      body: { error: 'Unauthorized' },
    });
  });

  it('leaves the literal routes beside it alone; an unknown word there is 404, not an assistant', async () => {
    expect((await t.http.get('/api/user/assistants/get').set(owner.auth)).body).toEqual(
      expect.objectContaining({ current_page: 1 }),
    );
    expect(Array.isArray((await t.http.get('/api/user/assistants/outbound').set(owner.auth)).body)).toBe(true);
    expect(Array.isArray((await t.http.get('/api/user/assistants/languages').set(owner.auth)).body)).toBe(true);
    expect(answerOf(await t.http.get('/api/user/assistants/nothing-here').set(owner.auth))).toEqual({
      status: 404,
      body: NOT_FOUND,
    });
    expect(
      answerOf(await t.http.patch('/api/user/assistants/nothing-here').set(owner.auth).send({ name: 'x' })),
    ).toEqual({ status: 404, body: NOT_FOUND });
    // The singular route keeps its family's answer for an id of the wrong shape.
    expect(answerOf(await t.http.get('/api/user/assistant/abc').set(owner.auth))).toEqual({
      status: 404,
      body: { message: 'Assistant not found' },
    });
  });

  it('names the alias methods in the Allow of a 405', async () => {
    const res = await t.http.post('/api/user/assistants/41').set(owner.auth).send({});
    expect(answerOf(res)).toEqual({ status: 405, body: { message: 'Method not allowed.' } });
    expect(res.headers.allow).toBe('GET, PATCH');
  });
});

describe('GET /api/user/assistants/synthesizer-providers and /transcriber-providers', () => {
  it.each(['synthesizer', 'transcriber'])(
    '%s: the bare array of GET /api/user/assistants/providers?kind=… whatever kind the caller sends',
    async (kind) => {
      const canonical = await t.http.get(`/api/user/assistants/providers?kind=${kind}`).set(owner.auth);
      expect(canonical.body.length).toBeGreaterThan(0);
      for (const query of ['', '?kind=synthesizer', '?kind=transcriber', '?kind=nonsense']) {
        const alias = await t.http.get(`/api/user/assistants/${kind}-providers${query}`).set(owner.auth);
        expect(answerOf(alias)).toEqual(answerOf(canonical));
      }
      expect(canonical.body.every((p: { kind: string }) => p.kind === kind)).toBe(true);
    },
  );
});

describe('POST /api/user/folders (the MCP server’s create_folder)', () => {
  it('creates as POST /api/user/folder does, refuses what it refuses, and shares its Idempotency-Key scope', async () => {
    const user = await t.createUser();
    const created = await t.http.post('/api/user/folders').set(user.auth).send({ name: 'Clients', color: 'blue' });
    expect(answerOf(created)).toEqual({
      status: 201,
      body: {
        message: 'Folder created successfully',
        data: { id: expect.any(Number), name: 'Clients', color: 'blue', assistants_count: 0 },
      },
    });
    const taken = await t.http.post('/api/user/folders').set(user.auth).send({ name: 'CLIENTS' });
    expect(answerOf(taken)).toEqual(
      answerOf(await t.http.post('/api/user/folder').set(user.auth).send({ name: 'CLIENTS' })),
    );
    expect(taken.body).toEqual({
      message: 'The given data was invalid.',
      errors: { name: ['The name has already been taken.'] },
    });
    const first = await t.http
      .post('/api/user/folders')
      .set(user.auth)
      .set('Idempotency-Key', 'folder-1')
      .send({ name: 'Once' });
    const replay = await t.http
      .post('/api/user/folder')
      .set(user.auth)
      .set('Idempotency-Key', 'folder-1')
      .send({ name: 'Once' });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(answerOf(replay)).toEqual(answerOf(first));
    expect((await t.http.get('/api/user/folders').set(user.auth)).body.total).toBe(2);
  });
});

describe('GET /api/user/phone-numbers/all', () => {
  it('answers what GET /api/user/phone-numbers answers; other methods there are 405, unknown words 404', async () => {
    const user = await t.createUser();
    await insertNumber(user);
    const alias = await t.http.get('/api/user/phone-numbers/all').set(user.auth);
    expect(answerOf(alias)).toEqual(answerOf(await t.http.get('/api/user/phone-numbers').set(user.auth)));
    expect(alias.body.data).toHaveLength(1);
    expect((await t.http.head('/api/user/phone-numbers/all').set(user.auth)).status).toBe(200);
    const deleted = await t.http.delete('/api/user/phone-numbers/all').set(user.auth);
    expect([deleted.status, deleted.headers.allow]).toEqual([405, 'GET']);
    expect(answerOf(await t.http.get('/api/user/phone-numbers/every').set(user.auth))).toEqual({
      status: 404,
      body: NOT_FOUND,
    });
  });
});

describe('GET /api/user/assistants/phone-numbers', () => {
  it('answers the numbers a new assistant of the type can take, as a bare array with type_label and is_available', async () => {
    const user = await t.createUser();
    const ringing = await insertNumber(user);
    const calling = await insertNumber(user);
    const idle = await insertNumber(user);
    await createAssistant(user, { name: 'Reception', type: 'inbound', phone_number_id: ringing });
    await createAssistant(user, { name: 'Dialer', type: 'outbound', phone_number_id: calling });
    const ids = async (query: string) => {
      const res = await t.http.get(`/api/user/assistants/phone-numbers${query}`).set(user.auth);
      expect(res.status).toBe(200);
      return (res.body as { id: number }[]).map((n) => n.id);
    };
    // As the MCP server's get_phone_numbers sends it (type optional) and OpenClaw's getPhoneNumbers (no query).
    expect(await ids('')).toEqual([idle, calling, ringing]);
    expect(await ids('?type=inbound')).toEqual([idle, calling]);
    expect(await ids('?type=outbound')).toEqual([idle, calling, ringing]);
    const all = await t.http.get('/api/user/assistants/phone-numbers').set(user.auth);
    const records = (await t.http.get('/api/user/phone-numbers').set(user.auth)).body.data as { id: number }[];
    expect(all.body).toEqual(records.map((n) => ({ ...n, type_label: 'SIP trunk', is_available: n.id !== ringing })));
    expect((await t.http.get('/api/user/assistants/phone-numbers').set(stranger.auth)).body).toEqual([]);
    expect(answerOf(await t.http.get('/api/user/assistants/phone-numbers?type=sip').set(user.auth))).toEqual({
      status: 422,
      body: { message: 'The given data was invalid.', errors: { type: ['The selected type is invalid.'] } },
    });
  });
});

describe('sandbox outbox of another account’s sender', () => {
  it('is not found, not an empty list; the caller’s own sender lists', async () => {
    const phone = `+49151${String(Date.now()).slice(-7)}`;
    const sender = await t.http
      .post('/api/user/chatapp/senders')
      .set(owner.auth)
      .send({ phone_number: phone, display_name: 'Outbox test' });
    expect(sender.status).toBe(201);
    const id = sender.body.data.id;
    expect(answerOf(await t.http.get(`/api/sandbox/chatapp/outbox?sender_id=${id}`).set(owner.auth))).toEqual({
      status: 200,
      body: { data: [] },
    });
    expect(answerOf(await t.http.get(`/api/sandbox/chatapp/outbox?sender_id=${id}`).set(stranger.auth))).toEqual({
      status: 404,
      body: NOT_FOUND,
    });
    expect(answerOf(await t.http.get('/api/sandbox/chatapp/outbox?sender_id=999999999').set(stranger.auth))).toEqual({
      status: 404,
      body: NOT_FOUND,
    });
    expect((await t.http.get('/api/sandbox/chatapp/outbox').set(stranger.auth)).status).toBe(200);
  });
});

describe('provider ingress of a provider this server does not serve', () => {
  it.each([
    ['post', '/api/providers/chatapp/telegram/webhook'],
    ['get', '/api/providers/chatapp/telegram/webhook?hub.mode=subscribe'],
    // With the sandbox chat app, WhatsApp is not served either.
    ['post', '/api/providers/chatapp/whatsapp/webhook'],
    ['post', '/api/providers/billing/paypal/webhook'],
  ] as const)('%s %s → 404 {"error":"Unknown provider."}', async (method, path) => {
    const res = await t.http[method](path)
      .set('Content-Type', 'application/json')
      .send(method === 'post' ? '{"entry":[]}' : undefined);
    expect(answerOf(res)).toEqual({ status: 404, body: { error: 'Unknown provider.' } });
  });

  it('another method there is a 405', async () => {
    const res = await t.http.put('/api/providers/chatapp/telegram/webhook').send({});
    expect([res.status, res.headers.allow]).toEqual([405, 'GET, POST']);
  });
});
