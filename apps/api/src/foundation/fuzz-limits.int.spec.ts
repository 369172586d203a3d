import type { Principal } from '@voiceplane/application';
import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';

/**
 * The fuzz lane's systematic half: inputs at the limits that random generation reaches too rarely,
 * tried against every operation of the OpenAPI document and every route quota (so routes added
 * later are covered too): a NUL or a lone surrogate in each path segment, bodies nested far past the
 * depth limit, dates beyond what PostgreSQL holds in cursor and time parameters, and path spellings
 * the router accepts (case, trailing slash, aliases) against each quota.
 */
interface Operation {
  readonly method: string;
  readonly path: string;
  readonly security: string;
  readonly query: readonly string[];
  readonly hasBody: boolean;
}

let t: TestApi;
let u: TestUser;
let operations: Operation[];

beforeAll(async () => {
  t = await createTestApi({ startBackground: false });
  u = await t.createUser({ balance: 5, plan: { api_rate_limit_per_minute: 100000 } });
  const doc = (await t.http.get('/api/openapi.json')).body as {
    paths: Record<
      string,
      Record<
        string,
        { security?: Record<string, unknown>[]; parameters?: { in?: string; name?: string }[]; requestBody?: unknown }
      >
    >;
  };
  operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      security: Object.keys(op.security?.[0] ?? {})[0] ?? 'none',
      query: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name!),
      hasBody: op.requestBody !== undefined,
    })),
  );
});
afterAll(async () => t.close());

function authFor(security: string): Record<string, string> {
  if (security === 'admin') return t.admin;
  if (security === 'runtime') return t.runtimeAuth;
  if (security === 'bearer') return u.auth;
  return {};
}

async function call(op: Operation, url: string, body?: string) {
  let req = t.http[op.method.toLowerCase() as 'get'](url).set(authFor(op.security));
  if (body !== undefined) req = req.set('Content-Type', 'application/json').send(body);
  const res = await req;
  return { label: `${op.method} ${url.slice(0, 140)} → ${res.status} ${JSON.stringify(res.body).slice(0, 120)}`, res };
}

const plain = (path: string) => path.replace(/\{[^}]+\}/g, '1');

it('a NUL byte or a lone surrogate in any path segment of any operation is never a 5xx', async () => {
  const failures: string[] = [];
  for (const op of operations) {
    const segments = op.path.split('/');
    for (let i = 2; i < segments.length; i++) {
      for (const hostile of ['%00', 'a%00', '%ED%A0%80']) {
        const url = segments
          .map((s, j) => (j === i ? (s.startsWith('{') ? hostile : `${s}${hostile}`) : s.replace(/\{[^}]+\}/, '1')))
          .join('/');
        const { res, label } = await call(op, url, op.hasBody ? '{}' : undefined);
        if (res.status >= 500) failures.push(label);
      }
    }
  }
  expect(failures).toEqual([]);
});

it('a body nested 10,000 levels deep is refused by every operation that reads one, never a 5xx', async () => {
  const deep = `{"a":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
  const failures: string[] = [];
  for (const op of operations.filter((o) => o.hasBody)) {
    const { res, label } = await call(op, plain(op.path), deep);
    if (res.status >= 500 || (res.status < 400 && !op.path.startsWith('/api/providers/'))) failures.push(label);
  }
  expect(failures).toEqual([]);
});

it('dates beyond what PostgreSQL holds, in every cursor and time parameter, are never a 5xx', async () => {
  const cursor = (a: string) => Buffer.from(JSON.stringify({ i: 1, a })).toString('base64url');
  const limits = [
    '-271821-04-20T00:00:00.000Z',
    '+275760-09-13T00:00:00.000Z',
    '-004714-11-23T00:00:00Z',
    '0000-01-01T00:00:00Z',
    '9999-12-31T23:59:59.999Z',
    '10000-01-01',
  ];
  const failures: string[] = [];
  for (const op of operations) {
    for (const name of op.query.filter((q) => /cursor|from|to|since|until|before|after|_at$/.test(q))) {
      for (const at of limits) {
        const value = name.includes('cursor') ? cursor(at) : encodeURIComponent(at);
        const { res, label } = await call(op, `${plain(op.path)}?${name}=${value}`, op.hasBody ? '{}' : undefined);
        if (res.status >= 500) failures.push(label);
      }
    }
  }
  expect(failures).toEqual([]);
});

describe('route quotas hold whatever spelling of the path the router accepts', () => {
  const principal = {
    userId: 1,
    tokenKind: 'api_key',
    tokenId: 1,
    plan: { api_rate_limit_per_minute: 600 },
  } as unknown as Principal;
  const quotas = () =>
    t.runtime.contributions
      .flatMap((c) => c.routeQuotas ?? [])
      .flatMap((q) =>
        q.routes.map((route) => ({
          method: q.method,
          route,
          limit: Math.min(...q.buckets(principal).map((b) => b.limit)),
        })),
      );

  /** What the router dispatches to the same handler: case, a trailing slash, the chat-app alias. */
  function spellings(route: string): string[] {
    const path = route.replace(/:[^/]+/g, '1');
    const tail = path.slice('/api/user/'.length);
    const found = [path, `${path}/`, `/api/user/${tail.toUpperCase()}`, `/API/User/${tail}/`];
    if (tail.startsWith('chatapp/'))
      found.push(
        `/api/user/whatsapp/${tail.slice('chatapp/'.length)}/`,
        `/api/user/whatsapp/${tail.slice('chatapp/'.length).toUpperCase()}`,
      );
    return found;
  }

  it('covers every quota the modules declare', () => {
    expect(
      quotas()
        .map((q) => `${q.method} ${q.route}`)
        .sort(),
    ).toEqual([
      'POST /api/user/ai/generate-reply',
      'POST /api/user/chatapp/send',
      'POST /api/user/chatapp/send-freeform',
      'POST /api/user/chatapp/voice/call',
      'POST /api/user/chatapp/voice/request',
      'POST /api/user/sms',
      'POST /api/user/tools/:id/test',
      'POST /api/user/webhooks/test',
    ]);
  });

  it('the request past each quota is refused, spelled any way', async () => {
    const failures: string[] = [];
    for (const q of quotas()) {
      const variants = spellings(q.route);
      // A burst split over two windows proves nothing; a fresh user per try, as the windows are per user.
      let statuses: number[] = [];
      for (let tries = 0; tries < 5; tries += 1) {
        const user = await t.createUser({ balance: 5 });
        const answers = [];
        for (let i = 0; i <= q.limit; i += 1)
          answers.push(
            await t.http
              .post(variants[i % variants.length])
              .set(user.auth)
              .send({}),
          );
        statuses = answers.map((r) => r.status);
        if (new Set(answers.map((r) => r.headers['x-ratelimit-reset'])).size === 1) break;
      }
      if (statuses.slice(0, q.limit).includes(429) || statuses[q.limit] !== 429)
        failures.push(`${q.method} ${q.route} via ${variants.join(', ')}: ${statuses.join(' ')}`);
      expect(statuses.slice(0, q.limit).every((s) => s < 500)).toBe(true);
    }
    expect(failures).toEqual([]);
  });
});
