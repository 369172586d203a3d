import { randomUUID } from 'node:crypto';
import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';
import { ALIAS_ROUTES, AliasRoute } from '@voiceplane/adapter-http';

/**
 * Every alias of the route table takes what its canonical route takes: with a trailing slash, in capitals,
 * or both, it answers as spelled exactly — never the router's 404 or 405.
 */
let t: TestApi;
let u: TestUser;
beforeAll(async () => {
  t = await createTestApi({ startBackground: false });
  u = await t.createUser();
});
afterAll(async () => t.close());

/** Names are unique per account: each request gets its own. */
let made = 0;
const fresh = (what: string) => `${what} ${(made += 1)}`;
const bodyFor = (method: string) =>
  method === 'POST'
    ? { name: fresh('Alias walk') }
    : method === 'PUT' || method === 'PATCH'
      ? { name: fresh('Alias renamed') }
      : undefined;

/** Path values: a fresh resource of the caller where the canonical route reads or changes one, else well-shaped ids nobody has. */
async function valuesFor(alias: AliasRoute): Promise<Record<string, string>> {
  if (alias.canonicalPath.startsWith('/api/user/folder/')) {
    return {
      id: String(
        (
          await t.http
            .post('/api/user/folder')
            .set(u.auth)
            .send({ name: fresh('Alias walk') })
        ).body.data.id,
      ),
    };
  }
  if (alias.canonicalPath.startsWith('/api/user/assistant/')) {
    return {
      id: String(
        (
          await t.http
            .post('/api/user/assistant')
            .set(u.auth)
            .send({ name: fresh('Alias walk') })
        ).body.data.id,
      ),
    };
  }
  return { id: '999999', uuid: randomUUID() };
}

/** The alias's path with `values` in it, its literal segments in capitals when asked. */
const spelled = (path: string, values: Record<string, string>, capitals: boolean) =>
  path
    .split('/')
    .map((segment) =>
      /^\{\w+\}$/.test(segment) ? values[segment.slice(1, -1)] : capitals ? segment.toUpperCase() : segment,
    )
    .join('/');

async function answer(alias: AliasRoute, spelling: { slash: boolean; capitals: boolean }) {
  const path = spelled(alias.path, await valuesFor(alias), spelling.capitals) + (spelling.slash ? '/' : '');
  const request = t.http[alias.method.toLowerCase() as 'get'](path).set(u.auth);
  const body = bodyFor(alias.method);
  const res = await (body ? request.send(body) : request);
  // Ids and times differ between fresh resources; a refusal's body must be the same.
  return { path, status: res.status, body: res.status >= 400 ? res.body : expect.anything() };
}

it.each(ALIAS_ROUTES.map((alias) => [`${alias.method} ${alias.path}`, alias] as const))(
  '%s answers with a trailing slash and in capitals as spelled exactly',
  async (_name, alias) => {
    const exact = await answer(alias, { slash: false, capitals: false });
    expect(exact.status).not.toBe(405);
    for (const spelling of [
      { slash: true, capitals: false },
      { slash: false, capitals: true },
      { slash: true, capitals: true },
    ]) {
      const got = await answer(alias, spelling);
      expect(got).toEqual({ path: got.path, status: exact.status, body: exact.body });
    }
  },
);

it('the chat-app routes under their public name take any case too', async () => {
  const canonical = await t.http.get('/api/user/chatapp/senders').set(u.auth);
  for (const path of ['/api/user/whatsapp/senders', '/API/USER/WHATSAPP/SENDERS/', '/api/user/WhatsApp/senders/']) {
    const res = await t.http.get(path).set(u.auth);
    expect({ path, status: res.status, body: res.body }).toEqual({
      path,
      status: canonical.status,
      body: canonical.body,
    });
  }
});
