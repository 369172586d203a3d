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
  message: 'The given data was invalid.', errors: { [field]: [`The ${name} contains characters that are not allowed.`] },
});
const counts = async () => (await t.db.dataSource.query(
  `SELECT (SELECT count(*) FROM folders) AS folders, (SELECT count(*) FROM tools) AS tools, (SELECT count(*) FROM users) AS users`,
))[0];

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
  const res = await t.http.post('/api/user/tools').set(u.auth).send({
    name: 'lookup', description: 'Looks an order up', endpoint: 'https://api.example.com/orders', method: 'GET',
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
  const plan = await t.http.put(`/api/admin/users/${u.id}/plan`).set(t.admin).set('Content-Type', 'application/json').send('{"plan":{"name":"\\ud800"}}');
  expect(plan.status).toBe(422);
  expect(plan.body).toEqual(invalid('plan.name', 'plan.name'));
});

it('a NUL byte in a query value → 422 keyed on the parameter', async () => {
  const res = await t.http.get('/api/admin/users?email=%00').set(t.admin);
  expect(res.status).toBe(422);
  expect(res.body).toEqual(invalid('email'));
});

it.each(['%ff', '%E0%A4%A', 'a%zz'])('an undecodable id (%s) gets the route\'s own 404, like any id that is not one', async (id) => {
  const notAnId = await t.http.get('/api/user/assistant/abc').set(u.auth);
  const res = await t.http.get(`/api/user/assistant/${id}`).set(u.auth);
  expect(res.status).toBe(404);
  expect(res.body).toEqual(notAnId.body);
  const tool = await t.http.put(`/api/user/tools/${id}`).set(u.auth).send({ name: 'x' });
  expect(tool.status).toBe(404);
});

it('a login e-mail of any length is refused as invalid, not counted into an overflowing key', async () => {
  const res = await t.http.post('/api/user/login').send({ email: `${'a'.repeat(400)}@example.test`, password: 'whatever' });
  expect(res.status).toBe(422);
  expect(Object.keys(res.body.errors)).toEqual(['email']);
});
