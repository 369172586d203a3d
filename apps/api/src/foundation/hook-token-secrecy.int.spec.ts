import { PassThrough } from 'node:stream';
import { migrations } from '@voiceplane/adapter-typeorm';
import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';
import { createAssistant } from '@voiceplane/stand-ins/calls/fixtures';

/**
 * An automation's webhook token is the credential of its URL (issue 32): stored sealed, opened only
 * to compare and to show the owner the URL, and never written to a log line.
 */
let t: TestApi;
let u: TestUser;
let log = '';

beforeAll(async () => {
  const sink = new PassThrough();
  sink.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
  t = await createTestApi({
    logTo: sink,
    startBackground: false,
    config: { publicBaseUrl: 'https://voiceplane.example.com' },
  });
  u = await t.createUser();
});
afterAll(async () => t.close());

let tables = 0;
async function lookupAutomation(): Promise<{ id: string; path: string; token: string }> {
  tables += 1;
  const table = (
    await t.http
      .post('/api/user/automate/tables')
      .set(u.auth)
      .send({ name: `Orders ${tables}`, columns: [{ name: 'order_number', type: 'string' }] })
  ).body.data.id;
  await t.http
    .post(`/api/user/automate/tables/${table}/rows`)
    .set(u.auth)
    .send({ rows: [{ values: { order_number: 'A-1' } }] });
  const applied = await t.http
    .post('/api/user/automate/templates/midcall_lookup_table')
    .set(u.auth)
    .send({ params: { table_id: table, key_column: 'order_number' } });
  expect(applied.status).toBe(201);
  const path = new URL(applied.body.webhook_url as string).pathname;
  return { id: applied.body.automation_id, path, token: path.split('/').pop()! };
}

const storedToken = async (id: string): Promise<string> =>
  (await t.db.dataSource.query(`SELECT webhook_token FROM automations WHERE id = $1`, [id]))[0].webhook_token;

it('stores the token sealed, shows the owner the same URL, and the URL still triggers', async () => {
  const { id, path, token } = await lookupAutomation();
  const stored = await storedToken(id);
  expect(stored).toMatch(/^v1\./);
  expect(stored).not.toContain(token);
  const flow = await t.http.get(`/api/user/automate/flows/${id}`).set(u.auth);
  expect(new URL(flow.body.data?.webhook_url ?? flow.body.webhook_url).pathname).toBe(path);
  expect((await t.http.post(path).send({ key: 'A-1' })).body).toEqual({ found: true, row: { order_number: 'A-1' } });
  const wrong = `${path.slice(0, -1)}${path.endsWith('x') ? 'y' : 'x'}`;
  const refused = await t.http.post(wrong).send({ key: 'A-1' });
  expect({ wrong, status: refused.status }).toEqual({ wrong, status: 404 });
});

it("keeps the token out of every other row: an idempotent trigger's stored key, the tool bound to the automation", async () => {
  const { path, token } = await lookupAutomation();
  const first = await t.http.post(path).set('Idempotency-Key', 'hook-1').send({ key: 'A-1' });
  const again = await t.http.post(`${path}/`).set('Idempotency-Key', 'hook-1').send({ key: 'A-1' });
  expect([again.headers['idempotent-replayed'], again.body]).toEqual(['true', first.body]);
  const [{ clear }] = await t.db.dataSource.query(
    `SELECT (SELECT count(*) FROM idempotency_keys WHERE position($1 in scope) > 0) + (SELECT count(*) FROM tools WHERE position($1 in endpoint) > 0) AS clear`,
    [token],
  );
  expect(Number(clear)).toBe(0);
});

it('a mid-call tool stored with the hook token in clear loses it to the migration', async () => {
  const assistant = await createAssistant(t, u);
  const table = (
    await t.http
      .post('/api/user/automate/tables')
      .set(u.auth)
      .send({ name: 'Tool orders', columns: [{ name: 'order_number', type: 'string' }] })
  ).body.data.id;
  await t.http
    .post(`/api/user/automate/tables/${table}/rows`)
    .set(u.auth)
    .send({ rows: [{ values: { order_number: 'A-1' } }] });
  const applied = await t.http
    .post('/api/user/automate/templates/midcall_lookup_table')
    .set(u.auth)
    .send({ params: { table_id: table, key_column: 'order_number' }, assistant_id: assistant });
  expect(applied.status).toBe(201);
  const url = applied.body.webhook_url as string;
  // As an older version stored it.
  await t.db.dataSource.query(`UPDATE tools SET endpoint = $2 WHERE automation_id = $1`, [
    applied.body.automation_id,
    url,
  ]);
  const [{ id: toolId }] = await t.db.dataSource.query(`SELECT id FROM tools WHERE automation_id = $1`, [
    applied.body.automation_id,
  ]);

  const Migration = migrations.find((m) => m.name === 'ToolHookEndpoints1795740000000')!;
  const runner = t.db.dataSource.createQueryRunner();
  try {
    await new Migration().up(runner);
  } finally {
    await runner.release();
  }
  const tool = (await t.http.get('/api/user/tools').set(u.auth)).body.find(
    (x: { id: number }) => x.id === Number(toolId),
  );
  expect(tool.endpoint).toBe(url.replace(/[^/]+$/, '[redacted]'));
});

it('a token stored in clear before sealing keeps working, and is sealed when an api starts', async () => {
  const { id, path, token } = await lookupAutomation();
  await t.db.dataSource.query(`UPDATE automations SET webhook_token = $2 WHERE id = $1`, [id, token]);
  expect((await t.http.post(path).send({ key: 'A-1' })).status).toBe(200);
  const second = await createTestApi({ db: t.db, startBackground: false });
  try {
    expect(await storedToken(id)).toMatch(/^v1\./);
    expect((await second.http.post(path).send({ key: 'A-1' })).status).toBe(200);
    expect((await t.http.post(path).send({ key: 'A-1' })).status).toBe(200);
  } finally {
    await second.close();
  }
});

it('writes no hook token to the log, even for a request that fails', async () => {
  const { path, token } = await lookupAutomation();
  await t.db.dataSource.query(
    `ALTER TABLE rate_limit_counters ADD CONSTRAINT hook_secrecy_refuse_all CHECK (false) NOT VALID`,
  );
  try {
    const res = await t.http
      .post(path.replace('/api/hooks/automations/', '/API/Hooks/AUTOMATIONS/'))
      .send({ key: 'A-1' });
    expect(res.status).toBe(500);
  } finally {
    await t.db.dataSource.query(`ALTER TABLE rate_limit_counters DROP CONSTRAINT hook_secrecy_refuse_all`);
  }
  expect(log).toContain('hook_secrecy_refuse_all');
  expect(log).toContain('[redacted]');
  expect(log).not.toContain(token);
});
