import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';
import { WebhookReceiver } from '@voiceplane/stand-ins/fault/webhook-receiver';

/** Data tables and connections through the composed app; CRMs are stubs on 127.0.0.1. */

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
let t: TestApi;
let owner: TestUser;
let stranger: TestUser;
let crm: WebhookReceiver;

beforeAll(async () => {
  t = await createTestApi({ startBackground: false });
  owner = await t.createUser();
  stranger = await t.createUser();
  crm = await WebhookReceiver.start();
});
afterAll(async () => {
  await crm.close();
  await t.close();
});

const TABLES = '/api/user/automate/tables';
const CONNECTIONS = '/api/user/automate/connections';

async function table(user: TestUser, name: string) {
  const res = await t.http
    .post(TABLES)
    .set(user.auth)
    .send({
      name,
      columns: [
        { name: 'order_number', type: 'string' },
        { name: 'qty', type: 'number' },
        { name: 'paid', type: 'boolean' },
      ],
    });
  if (res.status !== 201) throw new Error(`table create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data as { id: number };
}

describe('data tables', () => {
  it('creates a table, adds, lists, updates and deletes rows', async () => {
    const res = await t.http
      .post(TABLES)
      .set(owner.auth)
      .send({
        name: 'Orders',
        columns: [
          { name: 'order_number', type: 'string' },
          { name: 'status', type: 'string' },
        ],
      });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      message: 'Table created successfully',
      data: {
        id: expect.any(Number),
        name: 'Orders',
        columns: [
          { name: 'order_number', type: 'string' },
          { name: 'status', type: 'string' },
        ],
        rows_count: 0,
        created_at: expect.stringMatching(ISO),
        updated_at: expect.stringMatching(ISO),
      },
    });
    const id = res.body.data.id;
    const added = await t.http
      .post(`${TABLES}/${id}/rows`)
      .set(owner.auth)
      .send({
        rows: [{ values: { order_number: 'A-1001', status: 'shipped' } }, { values: { order_number: 'A-1002' } }],
      });
    expect(added.status).toBe(201);
    expect(added.body.message).toBe('Rows added successfully');
    expect(added.body.data.map((r: { values: unknown }) => r.values)).toEqual([
      { order_number: 'A-1001', status: 'shipped' },
      { order_number: 'A-1002', status: null },
    ]);
    const rowId = added.body.data[1].id;

    const updated = await t.http
      .put(`${TABLES}/${id}/rows/${rowId}`)
      .set(owner.auth)
      .send({ values: { status: 'pending' } });
    expect(updated.status).toBe(200);
    expect(updated.body.data.values).toEqual({ order_number: 'A-1002', status: 'pending' });

    const rows = await t.http.get(`${TABLES}/${id}/rows?per_page=1&page=2`).set(owner.auth);
    expect(rows.body).toMatchObject({ current_page: 2, per_page: 1, total: 2, last_page: 2, data: [{ id: rowId }] });
    expect((await t.http.get(`${TABLES}/${id}`).set(owner.auth)).body.data.rows_count).toBe(2);

    expect((await t.http.delete(`${TABLES}/${id}/rows/${rowId}`).set(owner.auth)).body).toEqual({
      message: 'Row deleted successfully',
    });
    expect((await t.http.delete(`${TABLES}/${id}/rows/${rowId}`).set(owner.auth)).body).toEqual({
      message: 'Row not found',
    });
    expect((await t.http.delete(`${TABLES}/${id}`).set(owner.auth)).body).toEqual({
      message: 'Table deleted successfully',
    });
    expect((await t.http.get(`${TABLES}/${id}`).set(owner.auth)).status).toBe(404);
  });

  it('refuses bad columns, duplicate names, bad values and unknown columns, creating nothing', async () => {
    const bad = await t.http
      .post(TABLES)
      .set(owner.auth)
      .send({
        name: 'Bad',
        columns: [
          { name: '1x', type: 'string' },
          { name: 'a', type: 'date' },
        ],
      });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toMatchObject({ 'columns.0.name': expect.any(Array), 'columns.1.type': expect.any(Array) });
    expect((await t.http.post(TABLES).set(owner.auth).send({ name: 'Empty', columns: [] })).status).toBe(422);
    await table(owner, 'Dupes');
    expect(
      (
        await t.http
          .post(TABLES)
          .set(owner.auth)
          .send({ name: 'Dupes', columns: [{ name: 'a', type: 'string' }] })
      ).body,
    ).toEqual({ message: 'The given data was invalid.', errors: { name: ['The name has already been taken.'] } });

    const { id } = await table(owner, 'Typed');
    const wrong = await t.http
      .post(`${TABLES}/${id}/rows`)
      .set(owner.auth)
      .send({ rows: [{ values: { order_number: 'X', qty: 'two', colour: 'red' } }] });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual({
      'rows.0.values.qty': ['The rows.0.values.qty must be a number.'],
      'rows.0.values.colour': ['The rows.0.values.colour column does not exist.'],
    });
    expect((await t.http.get(`${TABLES}/${id}`).set(owner.auth)).body.data.rows_count).toBe(0);
    expect((await t.http.post(`${TABLES}/${id}/rows`).set(owner.auth).send({ rows: [] })).status).toBe(422);
  });

  it('keeps the 10,000-row limit', async () => {
    const { id } = await table(owner, 'Full');
    await t.db.dataSource.query(
      `INSERT INTO automation_table_rows (table_id, values) SELECT $1, '{}'::jsonb FROM generate_series(1, 9999)`,
      [id],
    );
    const over = await t.http
      .post(`${TABLES}/${id}/rows`)
      .set(owner.auth)
      .send({ rows: [{ values: {} }, { values: {} }] });
    expect([over.status, over.body]).toEqual([422, { message: 'A table can hold at most 10000 rows.' }]);
    expect(
      (
        await t.http
          .post(`${TABLES}/${id}/rows`)
          .set(owner.auth)
          .send({ rows: [{ values: {} }] })
      ).status,
    ).toBe(201);
  });

  it("answers 404 for another account's table and its rows", async () => {
    const { id } = await table(owner, 'Private');
    for (const res of [
      await t.http.get(`${TABLES}/${id}`).set(stranger.auth),
      await t.http.get(`${TABLES}/${id}/rows`).set(stranger.auth),
      await t.http
        .post(`${TABLES}/${id}/rows`)
        .set(stranger.auth)
        .send({ rows: [{ values: {} }] }),
      await t.http.delete(`${TABLES}/${id}`).set(stranger.auth),
      await t.http.get(`${TABLES}/abc`).set(owner.auth),
    ])
      expect([res.status, res.body]).toEqual([404, { message: 'Table not found' }]);
  });
});

describe('connections', () => {
  const create = (user: TestUser, body: Record<string, unknown>) =>
    t.http
      .post(CONNECTIONS)
      .set(user.auth)
      .send({
        name: 'Acme CRM',
        kind: 'http_api',
        base_url: crm.url('/api'),
        auth_type: 'bearer',
        auth_value: 's3cret-token',
        ...body,
      });

  it('stores the secret sealed, never answers it, and checks it against the CRM', async () => {
    const res = await create(owner, {});
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      message: 'Connection created successfully',
      data: {
        id: expect.any(Number),
        name: 'Acme CRM',
        kind: 'http_api',
        base_url: crm.url('/api'),
        notes_path: '/notes',
        auth_type: 'bearer',
        auth_header_name: null,
        status: 'connected',
        last_checked_at: null,
        last_error: null,
        created_at: expect.stringMatching(ISO),
        updated_at: expect.stringMatching(ISO),
      },
    });
    expect(JSON.stringify(res.body)).not.toContain('s3cret');
    const [stored] = await t.db.dataSource.query(`SELECT auth_value_sealed FROM automation_connections WHERE id = $1`, [
      res.body.data.id,
    ]);
    expect(stored.auth_value_sealed).toMatch(/^v1\./);
    expect(stored.auth_value_sealed).not.toContain('s3cret');

    crm.respondWith(() => ({ status: 401, body: 'no' }));
    const broken = await t.http.post(`${CONNECTIONS}/${res.body.data.id}/check`).set(owner.auth);
    expect(broken.body.data).toMatchObject({
      status: 'broken',
      last_checked_at: expect.stringMatching(ISO),
      last_error: 'The CRM refused the credentials (HTTP 401).',
    });
    const request = crm.received[crm.received.length - 1];
    expect(request.path).toBe('/api');
    expect(request.headers.authorization).toBe('Bearer s3cret-token');
    expect(request.webhookId).toMatch(/^msg_/);

    const fixed = await t.http
      .put(`${CONNECTIONS}/${res.body.data.id}`)
      .set(owner.auth)
      .send({ auth_value: 'new-token' });
    expect(fixed.body.data).toMatchObject({ status: 'connected', last_error: null });
    crm.respondWith(() => ({ status: 404, body: 'none here' }));
    expect((await t.http.post(`${CONNECTIONS}/${res.body.data.id}/check`).set(owner.auth)).body.data.status).toBe(
      'connected',
    );
    expect(crm.received[crm.received.length - 1].headers.authorization).toBe('Bearer new-token');
    crm.respondWith(() => ({ status: 200, body: 'ok' }));

    const list = await t.http.get(CONNECTIONS).set(owner.auth);
    expect(list.body.data.map((c: { id: number }) => c.id)).toContain(res.body.data.id);
    expect(JSON.stringify(list.body)).not.toContain('token');
  });

  it('sends basic and custom-header credentials', async () => {
    const basic = (await create(owner, { auth_type: 'basic', auth_value: 'ann:pa:ss' })).body.data;
    await t.http.post(`${CONNECTIONS}/${basic.id}/check`).set(owner.auth);
    expect(crm.received[crm.received.length - 1].headers.authorization).toBe(
      `Basic ${Buffer.from('ann:pa:ss').toString('base64')}`,
    );
    const header = (await create(owner, { auth_type: 'header', auth_header_name: 'X-Api-Key', auth_value: 'k-1' })).body
      .data;
    await t.http.post(`${CONNECTIONS}/${header.id}/check`).set(owner.auth);
    expect(crm.received[crm.received.length - 1].headers['x-api-key']).toBe('k-1');
  });

  it('refuses incomplete credentials and bad fields', async () => {
    expect((await create(owner, { auth_value: undefined })).body.errors).toEqual({
      auth_value: ['The auth value field is required unless auth type is none.'],
    });
    expect((await create(owner, { auth_type: 'header', auth_value: 'x' })).body.errors).toEqual({
      auth_header_name: ['The auth header name field is required when auth type is header.'],
    });
    expect((await create(owner, { auth_type: 'basic', auth_value: 'nocolon' })).status).toBe(422);
    const bad = await create(owner, { kind: 'smtp', notes_path: 'notes', base_url: 'not a url' });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['base_url', 'kind', 'notes_path']);
  });

  it("hides another account's connection; the sandbox sets the status", async () => {
    const id = (await create(owner, {})).body.data.id;
    expect((await t.http.put(`${CONNECTIONS}/${id}`).set(stranger.auth).send({ name: 'x' })).body).toEqual({
      message: 'Connection not found',
    });
    expect((await t.http.post(`${CONNECTIONS}/${id}/check`).set(stranger.auth)).status).toBe(404);
    expect(
      (await t.http.put(`/api/sandbox/automate/connections/${id}/status`).set(stranger.auth).send({ status: 'broken' }))
        .body,
    ).toEqual({ message: 'Not found.' });
    const s12 = await t.http
      .put(`/api/sandbox/automate/connections/${id}/status`)
      .set(owner.auth)
      .send({ status: 'broken' });
    expect(s12.body).toMatchObject({ ok: true, data: { id, status: 'broken' } });
    expect((await t.http.delete(`${CONNECTIONS}/${id}`).set(owner.auth)).body).toEqual({
      message: 'Connection deleted successfully',
    });
    expect((await t.http.delete(`${CONNECTIONS}/${id}`).set(owner.auth)).status).toBe(404);
  });
});
