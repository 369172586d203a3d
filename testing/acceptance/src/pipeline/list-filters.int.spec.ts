import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';
import { declaredFields } from '@voiceplane/adapter-http';
import { familyOfPath, validationBody } from '@voiceplane/adapter-http';
import { authOf, routesOf, RouteDoc } from '@voiceplane/adapter-http';

/**
 * Every list route that takes filters refuses a query parameter it does not know, in its family's
 * validation shape, naming it; paging parameters are known everywhere. Walks the routes the composed
 * app documents, so a new filtered list that forgot the rule fails here.
 */

const PAGING = new Set(['page', 'per_page', 'cursor']);

/** GET routes with a query that are not lists: one resource read with options, not a filter of many. */
const NOT_LISTS = new Set(['/api/user/chatapp/session-status', '/api/user/chatapp/voice/permission']);

const takesFilters = (r: RouteDoc) =>
  r.method === 'get' &&
  r.query !== undefined &&
  [...declaredFields(r.query).order.keys()].some((k) => !PAGING.has(k)) &&
  !NOT_LISTS.has(r.path);

describe('unknown filters on list routes', () => {
  let t: TestApi;
  let user: TestUser;
  let lists: RouteDoc[];
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApi({ startBackground: false });
    user = await t.createUser();
    lists = routesOf(t.runtime.container).filter(takesFilters);
    const assistant = (await t.http.post('/api/user/assistant').set(user.auth).send({ name: 'Walker' })).body.data
      .id as number;
    const sender = await t.http
      .post('/api/user/chatapp/senders')
      .set(user.auth)
      .send({ phone_number: '+4915299990077', display_name: 'Acme' });
    ids.sender_id = String(sender.body.data.id);
    const flow = await t.http
      .post('/api/user/automate/templates/post_call_webhook_forward')
      .set(user.auth)
      .send({ assistant_id: assistant, params: { url: 'https://example.test/calls' }, test: false });
    ids.id = String(flow.body.automation_id);
  });
  afterAll(async () => {
    await t.close();
  });

  it('finds the filtered lists', () => {
    expect(lists.map((r) => r.path)).toEqual(
      expect.arrayContaining([
        '/api/user/calls',
        '/api/user/assistants/models',
        '/api/user/assistants/phone-numbers',
        '/api/user/conversations',
        '/api/user/tools',
      ]),
    );
  });

  it("answers 422 naming an unknown parameter on each, in the family's shape, and keeps paging parameters", async () => {
    const answers = [];
    for (const route of lists) {
      const path = route.path.replace(/:([A-Za-z_]+)/g, (_m, name: string) => ids[name] ?? '1');
      const auth = authOf(route) === 'admin' ? t.admin : user.auth;
      // The templates alias needs its sender; every other parameter here is paging or unknown.
      const needed = path === '/api/user/chatapp/templates' ? `sender_id=${ids.sender_id}&` : '';
      const res = await t.http.get(`${path}?${needed}campain_id=7&page=1&per_page=5&cursor=`).set(auth);
      answers.push({ route: route.path, status: res.status, body: res.body });
    }
    expect(answers).toEqual(
      lists.map((route) => ({
        route: route.path,
        status: 422,
        body: validationBody(familyOfPath(route.path), { campain_id: ['The campain id parameter is not supported.'] }),
      })),
    );
  });

  it('ignores unknown parameters on routes without filters', async () => {
    const res = await t.http.get('/api/user/folders?campain_id=7').set(user.auth);
    expect(res.status).toBe(200);
  });
});
