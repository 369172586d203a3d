import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';

/**
 * Hostile input found by fuzzing (issue: hardening): each answers its family's 4xx before anything
 * reaches a repository, and changes nothing.
 */
let t: TestApi;
let u: TestUser;
beforeAll(async () => {
  t = await createTestApi({ startBackground: false });
  u = await t.createUser();
});
afterAll(async () => t.close());

const invalid = (field: string, name = field.replace(/_/g, ' ')) => ({
  message: 'The given data was invalid.',
  errors: { [field]: [`The ${name} contains characters that are not allowed.`] },
});
const counts = async () =>
  (
    await t.db.dataSource.query(
      `SELECT (SELECT count(*) FROM folders) AS folders, (SELECT count(*) FROM tools) AS tools, (SELECT count(*) FROM users) AS users`,
    )
  )[0];

it.each([
  ['a NUL byte', '{"name":"a\\u0000b"}'],
  ['a lone high surrogate', '{"name":"x\\ud800"}'],
  ['a lone low surrogate', '{"name":"\\udc00y"}'],
])('%s in a text field → 422 keyed on the field, nothing stored', async (_name, raw) => {
  const before = await counts();
  const res = await t.http.post('/api/user/folder').set(u.auth).set('Content-Type', 'application/json').send(raw);
  expect(res.status).toBe(422);
  expect(res.body).toEqual(invalid('name'));
  expect(await counts()).toEqual(before);
});

it('a NUL byte deep in a body is keyed by its dotted path', async () => {
  const before = await counts();
  const res = await t.http
    .post('/api/user/tools')
    .set(u.auth)
    .send({
      name: 'lookup',
      description: 'Looks an order up',
      endpoint: 'https://api.example.com/orders',
      method: 'GET',
      headers: [{ name: 'Authorization', value: 'Bearer a\u0000b' }],
    });
  expect(res.status).toBe(422);
  expect(res.body).toEqual(invalid('headers.0.value', 'headers.0.value'));
  expect(await counts()).toEqual(before);
});

it('admin and runtime bodies are guarded too', async () => {
  const admin = await t.http.post('/api/admin/users').set(t.admin).send({ name: 'N\u0000', email: 'nul@example.test' });
  expect(admin.status).toBe(422);
  expect(admin.body).toEqual(invalid('name'));
  const plan = await t.http
    .put(`/api/admin/users/${u.id}/plan`)
    .set(t.admin)
    .set('Content-Type', 'application/json')
    .send('{"plan":{"name":"\\ud800"}}');
  expect(plan.status).toBe(422);
  expect(plan.body).toEqual(invalid('plan.name', 'plan.name'));
});

it('a NUL byte in a query value → 422 keyed on the parameter', async () => {
  const res = await t.http.get('/api/admin/users?email=%00').set(t.admin);
  expect(res.status).toBe(422);
  expect(res.body).toEqual(invalid('email'));
});

it.each(['%ff', '%E0%A4%A', 'a%zz'])(
  "an undecodable id (%s) gets the route's own 404, like any id that is not one",
  async (id) => {
    const notAnId = await t.http.get('/api/user/assistant/abc').set(u.auth);
    const res = await t.http.get(`/api/user/assistant/${id}`).set(u.auth);
    expect(res.status).toBe(404);
    expect(res.body).toEqual(notAnId.body);
    const tool = await t.http.put(`/api/user/tools/${id}`).set(u.auth).send({ name: 'x' });
    expect(tool.status).toBe(404);
  },
);

it('a login e-mail of any length is refused as invalid, not counted into an overflowing key', async () => {
  const res = await t.http
    .post('/api/user/login')
    .send({ email: `${'a'.repeat(400)}@example.test`, password: 'whatever' });
  expect(res.status).toBe(422);
  expect(Object.keys(res.body.errors)).toEqual(['email']);
});

it.each(['/api/user/tools', '/api/user/folders', '/api/user/assistants/get', '/api/user/billing/ledger'])(
  'page=99999999999999999999 on %s → 422 keyed page',
  async (path) => {
    const res = await t.http.get(`${path}?page=99999999999999999999`).set(u.auth);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      message: 'The given data was invalid.',
      errors: { page: ['The page must be an integer.'] },
    });
  },
);

it('an operator amount or opening balance beyond 1,000,000 → 422, nothing posted', async () => {
  const before = await counts();
  const amount = await t.http
    .post(`/api/admin/users/${u.id}/balance`)
    .set(t.admin)
    .send({ amount: 99999999999999999999, note: 'typo' });
  expect(amount.status).toBe(422);
  expect(Object.keys(amount.body.errors)).toEqual(['amount']);
  const created = await t.http
    .post('/api/admin/users')
    .set(t.admin)
    .send({ name: 'Rich', email: 'rich@example.test', balance: 1e20 });
  expect(created.status).toBe(422);
  expect(created.body.errors).toEqual({ balance: ['The balance may not be greater than 1000000.'] });
  expect(await counts()).toEqual(before);
});

it('a JSON null body on a route that takes an object → 422 keyed body, nothing changed', async () => {
  const folder = (await t.http.post('/api/user/folder').set(u.auth).send({ name: 'f-null' })).body.data.id;
  const label = (await t.http.post('/api/user/label').set(u.auth).send({ name: 'l-null' })).body.data.id;
  const tool = (
    await t.http
      .post('/api/user/tools')
      .set(u.auth)
      .send({ name: 'render_me', description: 'Renders', endpoint: 'https://api.example.com/x', method: 'GET' })
  ).body.data.id;
  const trunk = (
    await t.http.post('/api/user/phone-numbers/sip-trunks').set(u.auth).send({
      phone_number: '+493012345699',
      sip_username: 'null-user',
      sip_password: 'p@ss-word 1',
      sip_address: 'sip.carrier.example',
      country_code: 'de',
    })
  ).body.data.id;
  const before = await counts();
  for (const [method, path] of [
    ['put', `/api/user/folder/${folder}`],
    ['put', `/api/user/label/${label}`],
    ['put', `/api/user/phone-numbers/sip-trunks/${trunk}`],
    ['post', `/api/user/tools/${tool}/render`],
    ['post', `/api/user/tools/${tool}/test`],
    ['post', '/api/user/make_call'],
  ] as const) {
    const res = await t.http[method](path).set(u.auth).set('Content-Type', 'application/json').send('null');
    expect({ path, status: res.status, body: res.body }).toEqual({
      path,
      status: 422,
      body: { message: 'The given data was invalid.', errors: { body: ['The request body must be a JSON object.'] } },
    });
  }
  expect(await counts()).toEqual(before);
});

it('a JSON null body on the admin plan route → 422 keyed body', async () => {
  const res = await t.http
    .put(`/api/admin/users/${u.id}/plan`)
    .set(t.admin)
    .set('Content-Type', 'application/json')
    .send('null');
  expect(res.status).toBe(422);
  expect(res.body).toEqual({
    message: 'The given data was invalid.',
    errors: { body: ['The request body must be a JSON object.'] },
  });
});

it('a tool header value with a line break is refused: it would split the header when sent', async () => {
  const before = await counts();
  const res = await t.http
    .post('/api/user/tools')
    .set(u.auth)
    .send({
      name: 'split',
      description: 'Splits a header',
      endpoint: 'https://api.example.com/x',
      method: 'GET',
      headers: [{ name: 'X-A', value: 'a\r\nInjected: 1' }],
    });
  expect(res.status).toBe(422);
  expect(res.body).toEqual({
    message: 'The given data was invalid.',
    errors: { 'headers.0.value': ['The headers.0.value format is invalid.'] },
  });
  expect(await counts()).toEqual(before);
});

describe('nesting depth (issue 32)', () => {
  const nested = (levels: number) => `{"name":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;
  const deep = nested(4000);
  const tooDeep = ['The request body may not be nested more than 64 levels deep.'];

  it("a body nested 4,000 levels → the family's 422 keyed body on every family, nothing stored", async () => {
    const before = await counts();
    const standard = await t.http
      .post('/api/user/folder')
      .set(u.auth)
      .set('Content-Type', 'application/json')
      .send(deep);
    expect({ status: standard.status, body: standard.body }).toEqual({
      status: 422,
      body: { message: 'The given data was invalid.', errors: { body: tooDeep } },
    });
    const chatapp = await t.http
      .post('/api/user/chatapp/send-freeform')
      .set(u.auth)
      .set('Content-Type', 'application/json')
      .send(deep);
    expect({ status: chatapp.status, body: chatapp.body }).toEqual({
      status: 422,
      body: { success: false, error: tooDeep[0], error_code: 'VALIDATION_ERROR', errors: { body: tooDeep } },
    });
    const conversation = await t.http
      .post('/api/user/conversations/7d3c5f0e-8a6b-4c1d-9e2f-3a4b5c6d7e8f/disable-ai')
      .set(u.auth)
      .set('Content-Type', 'application/json')
      .send(deep);
    expect({ status: conversation.status, body: conversation.body }).toEqual({
      status: 422,
      body: { status: false, error: 'The given data was invalid.', errors: { body: tooDeep } },
    });
    const admin = await t.http.post('/api/admin/users').set(t.admin).set('Content-Type', 'application/json').send(deep);
    expect(admin.status).toBe(422);
    const runtime = await t.http
      .post('/api/runtime/tool-calls')
      .set(t.runtimeAuth)
      .set('Content-Type', 'application/json')
      .send(deep);
    expect(runtime.status).toBe(422);
    const hook = await t.http
      .post('/api/hooks/automations/aut_0000000000000000000000/tok')
      .set('Content-Type', 'application/json')
      .send(deep);
    expect(hook.status).toBe(422);
    expect(await counts()).toEqual(before);
  });

  it('64 levels are still read and judged by the route itself', async () => {
    const res = await t.http
      .post('/api/user/folder')
      .set(u.auth)
      .set('Content-Type', 'application/json')
      .send(nested(64));
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['name']);
  });

  it('malformed deep JSON is still 400', async () => {
    const res = await t.http
      .post('/api/user/folder')
      .set(u.auth)
      .set('Content-Type', 'application/json')
      .send('['.repeat(5000));
    expect(res.status).toBe(400);
  });
});

describe('NUL in a path segment (issue 32)', () => {
  it.each([
    ['post', '/api/sandbox/chatapp/messages/%00/status'],
    ['get', '/api/user/assistant/%00'],
    ['get', '/api/user/conversations/%00'],
    ['get', '/api/user/chatapp/senders/a%00b'],
    ['post', '/api/hooks/automations/aut_%00/tok%00'],
    ['get', '/api/user/automate/flows/%00'],
  ])("%s %s → the route's own 4xx, never a 500", async (method, path) => {
    const call = t.http[method as 'get'](path);
    if (path.startsWith('/api/user') || path.startsWith('/api/sandbox')) call.set(u.auth);
    const res = method === 'post' ? await call.send({ status: 'delivered' }) : await call;
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });
});

describe('dates at the limits (issue 32)', () => {
  const cursor = (position: object) => Buffer.from(JSON.stringify(position)).toString('base64url');

  it.each([
    ['-271821-04-20T00:00:00.000Z'],
    ['+275760-09-13T00:00:00.000Z'],
    ['-004714-01-01T00:00:00.000Z'],
    ['2026-13-45T99:00:00Z'],
    ['tomorrow'],
  ])("a conversation cursor at %s → the conversation family's 422 keyed cursor", async (at) => {
    for (const path of ['/api/user/conversations', '/api/user/CONVERSATIONS/']) {
      const res = await t.http.get(`${path}?cursor=${cursor({ i: 1, a: at })}`).set(u.auth);
      expect({ path, status: res.status, body: res.body }).toEqual({
        path,
        status: 422,
        body: {
          status: false,
          error: 'The given data was invalid.',
          errors: { cursor: ['The selected cursor is invalid.'] },
        },
      });
    }
  });

  it('a cursor at the earliest and latest four-digit years pages normally', async () => {
    for (const at of ['0001-01-01T00:00:00.000Z', '9999-12-31T23:59:59.999Z']) {
      const res = await t.http.get(`/api/user/conversations?cursor=${cursor({ i: 1, a: at })}`).set(u.auth);
      expect(res.status).toBe(200);
    }
  });

  it.each(['-271821-04-20T00:00:00.000Z', '+275760-09-13T00:00:00Z', '10000-01-01', '0000-00-00'])(
    'a call list bound of %s → 422 keyed from, never a 500',
    async (at) => {
      const res = await t.http.get(`/api/user/calls?from=${encodeURIComponent(at)}`).set(u.auth);
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual(['from']);
    },
  );

  it.each(['0001-01-01T00:00:00Z', '9999-12-31T23:59:59.999+00:00'])(
    'a call list bound of %s at the limit is answered',
    async (at) => {
      const res = await t.http
        .get(`/api/user/calls?from=${encodeURIComponent(at)}&to=${encodeURIComponent(at)}`)
        .set(u.auth);
      expect(res.status).toBe(200);
    },
  );
});
