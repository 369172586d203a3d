import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';
import { ALIAS_ROUTES } from '@voiceplane/adapter-http';
import { parameterFits } from '@voiceplane/adapter-http';

/**
 * The router's rule for path ids, over every route the composed api mounts (read from its route table, aliases
 * added): a literal word where an id goes is never taken for one — it is an unknown route (404), never a 405 —
 * while a well-shaped id keeps the path known, so other methods there are 405.
 */
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
type Method = (typeof METHODS)[number];
const LITERAL = 'unknown-literal';
const VALID: Record<string, string> = {
  uuid: '4f0b2d9e-8c1a-4e3b-9f6d-2a7c5e1b0d34',
  message_sid: `SM${'ab'.repeat(16)}`,
};
const NOT_FOUND = { message: 'Not found.' };

interface DeclaredRoute {
  readonly path: string;
  readonly methods: Method[];
}

let t: TestApi;
let user: TestUser;
let routes: DeclaredRoute[];
beforeAll(async () => {
  t = await createTestApi({ startBackground: false });
  user = await t.createUser();
  const stack = (
    t.runtime.app as unknown as {
      router: { stack: { route?: { path: string | string[]; methods: Record<string, boolean> } }[] };
    }
  ).router.stack;
  const mounted = stack.flatMap(({ route }) =>
    route
      ? [route.path].flat().map((path) => ({
          path,
          methods: Object.keys(route.methods).filter((m): m is Method => (METHODS as readonly string[]).includes(m)),
        }))
      : [],
  );
  const aliases = ALIAS_ROUTES.map((a) => ({
    path: a.path.replace(/\{([a-z_]+)\}/g, ':$1'),
    methods: [a.method.toLowerCase() as Method],
  }));
  const byPath = new Map<string, Set<Method>>();
  for (const r of [...mounted, ...aliases])
    for (const m of r.methods) (byPath.get(r.path) ?? byPath.set(r.path, new Set()).get(r.path)!).add(m);
  routes = [...byPath].map(([path, methods]) => ({ path, methods: [...methods] }));
});
afterAll(async () => t.close());

const shapedNames = (path: string) =>
  [...path.matchAll(/:([a-z_]+)/g)].map((m) => m[1]).filter((name) => !parameterFits(name, LITERAL));
const fill = (path: string, literalAt?: string) =>
  path.replace(/:([a-z_]+)/g, (_m, name: string) =>
    name === literalAt ? LITERAL : (VALID[name] ?? (parameterFits(name, '999999999') ? '999999999' : 'x')),
  );
const authFor = (path: string) =>
  path.startsWith('/api/admin/') ? t.admin : path.startsWith('/api/runtime/') ? t.runtimeAuth : user.auth;
const send = (method: Method, path: string) => {
  const req = t.http[method](path).set(authFor(path));
  return method === 'get' || method === 'delete' ? req : req.send({});
};

describe('path ids in the router', () => {
  it('reads every route of the app', () => {
    const withIds = routes.filter((r) => shapedNames(r.path).length > 0);
    expect(withIds.length).toBeGreaterThan(50);
    expect(withIds.map((r) => r.path)).toEqual(
      expect.arrayContaining(['/api/user/assistant/:id', '/api/user/assistants/:id', '/api/user/phone-numbers/:id']),
    );
  });

  it('a literal word in an id place is an unknown route on every method: 404, never 405', async () => {
    const wrong: string[] = [];
    for (const route of routes) {
      for (const name of shapedNames(route.path)) {
        const path = fill(route.path, name);
        for (const method of METHODS) {
          const res = await send(method, path);
          // Its own methods: the route's handler answers its family's not-found; any other method: the generic one.
          const fine =
            res.status === 404 &&
            (route.methods.includes(method) || JSON.stringify(res.body) === JSON.stringify(NOT_FOUND));
          if (!fine) wrong.push(`${method.toUpperCase()} ${path} → ${res.status} ${JSON.stringify(res.body)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it("a well-shaped id keeps the path known: another method there is a 405 naming the route's methods", async () => {
    const wrong: string[] = [];
    for (const route of routes.filter((r) => shapedNames(r.path).length > 0)) {
      const path = fill(route.path);
      const other = METHODS.find((m) => !routes.some((r) => r.methods.includes(m) && fill(r.path) === path));
      if (!other) continue;
      const res = await send(other, path);
      const allow = String(res.headers.allow ?? '').split(', ');
      const fine = res.status === 405 && route.methods.every((m) => allow.includes(m.toUpperCase()));
      if (!fine) wrong.push(`${other.toUpperCase()} ${path} → ${res.status} Allow: ${res.headers.allow}`);
    }
    expect(wrong).toEqual([]);
  });
});
