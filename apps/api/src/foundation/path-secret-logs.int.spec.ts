import { PassThrough } from 'node:stream';
import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';

/**
 * Every route whose address carries its credential — an automation's hook URL, the sandbox checkout
 * page — is requested in the spellings the router accepts, with the log at debug (the request log
 * included), and the log is searched for the credential.
 */
let t: TestApi;
let u: TestUser;
let log = '';

beforeAll(async () => {
  const sink = new PassThrough();
  sink.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
  t = await createTestApi({
    logTo: sink,
    logLevel: 'debug',
    startBackground: false,
    config: { publicBaseUrl: 'https://voiceplane.example.com' },
  });
  u = await t.createUser();
});
afterAll(async () => t.close());

/** The path of an automation's hook (a table lookup applied from its template) and its token. */
async function hookPath(): Promise<{ path: string; token: string }> {
  const table = (
    await t.http
      .post('/api/user/automate/tables')
      .set(u.auth)
      .send({ name: 'Orders', columns: [{ name: 'order_number', type: 'string' }] })
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
  return { path, token: path.split('/').pop()! };
}

/** The path of a sandbox top-up's checkout page and its token. */
async function checkoutPath(): Promise<{ path: string; token: string }> {
  const created = await t.http.post('/api/user/billing/top-ups').set(u.auth).send({ amount: 20 });
  expect(created.status).toBe(201);
  const path = new URL(created.body.data.checkout_url as string).pathname;
  return { path, token: path.split('/').pop()! };
}

/** The path as sent, with a trailing slash, with its route in capitals (the token keeps its case), with a query. */
const spellings = (path: string) => {
  const cut = path.lastIndexOf('/');
  return [path, `${path}/`, `${path.slice(0, cut).toUpperCase()}${path.slice(cut)}`, `${path}?from=log-test`];
};

it('the documented routes with a credential in their path are the hook routes (the checkout page is not documented)', async () => {
  const doc = (await t.http.get('/api/openapi.json')).body as { paths: Record<string, unknown> };
  expect(Object.keys(doc.paths).filter((p) => /\{[^}]*(token|secret)[^}]*\}/i.test(p))).toEqual([
    '/api/hooks/automations/{id}/{token}',
  ]);
});

it('writes neither a hook token nor a checkout token to the log, whatever the spelling and the answer', async () => {
  const hook = await hookPath();
  const checkout = await checkoutPath();
  const lines = log.split('\n').length;
  for (const path of spellings(hook.path)) {
    const res = await t.http.post(path).send({ order_number: 'A-1' });
    expect(res.status).toBeLessThan(500);
  }
  for (const path of spellings(checkout.path)) expect((await t.http.get(path)).status).toBe(200);
  const [, , capitals] = spellings(checkout.path);
  expect((await t.http.post(capitals).type('form').send({ choice: 'decline' })).status).toBe(200);
  expect((await t.http.post(checkout.path).type('form').send({ choice: 'pay' })).status).toBe(409);

  const written = log
    .split('\n')
    .slice(lines - 1)
    .join('\n');
  expect(written.split('request completed').length - 1).toBeGreaterThanOrEqual(10);
  expect(written.split('[redacted]').length - 1).toBeGreaterThanOrEqual(10);
  expect(log).not.toContain(hook.token);
  expect(log).not.toContain(checkout.token);
});
