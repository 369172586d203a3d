import fc from 'fast-check';
import { createTestApi, listenOnLoopback, TestApi, TestUser } from '@voiceplane/test-env';

/**
 * Property: for every operation of the OpenAPI document (so every route added later is fuzzed too),
 * hostile paths, queries and bodies never get a 5xx, and a refused request changes nothing.
 * `npm test` runs a fixed seed and a few cases per operation; `FUZZ_RUNS=200 FUZZ_SEED=…` goes longer.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 6);
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);

interface Operation {
  readonly method: string;
  readonly path: string;
  readonly security: string;
  readonly query: readonly string[];
  readonly bodyKeys: readonly string[] | null;
  /** Its success answer is a stream that never ends on its own (server-sent events). */
  readonly stream: boolean;
}

/**
 * Tables whose rows legitimately move on a refused request (counters, replay store, key use stamps),
 * or move by themselves meanwhile: an open event stream's lease is renewed by a timer, and events
 * heard on the bus are kept for streams that resume.
 */
const VOLATILE = new Set([
  'rate_limit_counters',
  'idempotency_keys',
  'schema_migrations',
  'api_keys',
  'event_stream_leases',
  'account_events',
]);

const hostileText = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('99999999999999999999', '9223372036854775808', '-99999999999999999999', '1e400', '%ff', 'a\u0000b'),
  fc.constantFrom(
    'a\u0000b',
    '\u0000',
    'x\ud800',
    '\udfff',
    '%ff',
    '%00',
    '99999999999999999999',
    '-1',
    '0',
    '1e400',
    ' ',
    '😀'.repeat(3),
    'null',
    'true',
  ),
  fc.string({ minLength: 300, maxLength: 3000 }),
);
const hostileNumber = fc.oneof(
  fc.integer(),
  fc.constantFrom(1e20, -1e20, 1e300),
  fc.constantFrom(
    1e20,
    -1e20,
    99999999999999999999,
    9223372036854775808,
    Number.MAX_SAFE_INTEGER + 2,
    1.5,
    -0.0001,
    0,
    -1,
  ),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const hostileValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    hostileText,
    hostileNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(hostileText, tie('value'), { maxKeys: 3 }),
  ),
})).value;
const hostileSegment = fc.constantFrom(
  '%ff',
  '%E0%A4%A',
  '99999999999999999999',
  '9223372036854775808',
  '-1',
  '0',
  '%00',
  'abc',
  '1e5',
  '1.5',
  '%2e%2e',
  'x'.repeat(300),
);

/** Percent-encodes any text; a lone surrogate goes out as its (undecodable) WTF-8 bytes, as a raw client could send it. */
function encodeHostile(text: string): string {
  return Array.from(text, (ch) => {
    try {
      return encodeURIComponent(ch);
    } catch {
      return `%${[0xe0 | (ch.charCodeAt(0) >> 12), 0x80 | ((ch.charCodeAt(0) >> 6) & 0x3f), 0x80 | (ch.charCodeAt(0) & 0x3f)].map((b) => b.toString(16).toUpperCase()).join('%')}`;
    }
  }).join('');
}

/** Values a parameter could plausibly take: with these around a hostile one, it is the hostile one that is judged. */
const plausible = fc.constantFrom<string | undefined>(undefined, undefined, '1', '2', '15', 'inbound', 'true');

/** One parameter hostile, the others absent or plausible: a hostile value elsewhere would hide it behind an earlier 422. */
function queryFor(names: readonly string[]): fc.Arbitrary<(string | undefined)[]> {
  if (names.length === 0) return fc.constant([]);
  return fc
    .tuple(fc.nat(names.length - 1), fc.tuple(...names.map(() => plausible)), hostileText)
    .map(([target, values, hostile]) => values.map((v, i) => (i === target ? hostile : v)));
}

const plausibleValue = fc.constantFrom<unknown>(
  'x',
  'Name',
  1,
  2,
  true,
  'inbound',
  'https://example.com/hook',
  '+14155550134',
);

/** Mostly the operation's own fields, one hostile and the others plausible or absent; sometimes not an object at all. */
function bodyFor(keys: readonly string[] | null): fc.Arbitrary<unknown> {
  const shaped =
    keys && keys.length > 0
      ? fc
          .tuple(
            fc.nat(keys.length - 1),
            fc.tuple(...keys.map(() => fc.option(plausibleValue, { nil: undefined }))),
            hostileValue,
          )
          .map(([target, values, hostile]) =>
            Object.fromEntries(
              keys.flatMap((k, i) => (i === target ? [[k, hostile]] : values[i] === undefined ? [] : [[k, values[i]]])),
            ),
          )
      : fc.dictionary(hostileText, hostileValue, { maxKeys: 3 });
  return fc.oneof(
    { weight: 6, arbitrary: shaped },
    fc.constant(null),
    fc.array(hostileValue, { maxLength: 2 }),
    hostileText,
    hostileNumber,
  );
}

let t: TestApi;
let u: TestUser;
let operations: Operation[];
let server: { baseUrl: string; close(): Promise<void> };

beforeAll(async () => {
  t = await createTestApi({ startBackground: false });
  u = await t.createUser({ balance: 5, plan: { api_rate_limit_per_minute: 100000 } });
  const doc = (await t.http.get('/api/openapi.json')).body as {
    paths: Record<
      string,
      Record<
        string,
        {
          security?: Record<string, unknown>[];
          parameters?: { in?: string; name?: string }[];
          requestBody?: { content: Record<string, { schema: { $ref?: string } }> };
          responses: Record<string, { content?: Record<string, unknown> }>;
        }
      >
    >;
    components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
  };
  operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => {
      const ref = op.requestBody?.content['application/json']?.schema.$ref;
      return {
        method: method.toUpperCase(),
        path,
        security: Object.keys(op.security?.[0] ?? {})[0] ?? 'none',
        query: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name!),
        bodyKeys: ref ? Object.keys(doc.components.schemas[ref.split('/').pop()!]?.properties ?? {}) : null,
        stream: Object.entries(op.responses).some(
          ([status, r]) => status.startsWith('2') && 'text/event-stream' in (r.content ?? {}),
        ),
      };
    }),
  );
  server = await listenOnLoopback(t.runtime.app);
});
afterAll(async () => {
  await server.close();
  await t.close();
});

/** A stream's status once its headers came; the stream itself is let go (supertest would wait for its end). */
async function streamStatus(url: string, security: string): Promise<{ status: number; body: unknown }> {
  const abort = new AbortController();
  const res = await fetch(`${server.baseUrl}${url}`, { headers: authFor(security), signal: abort.signal });
  const body = res.headers.get('content-type')?.includes('json') ? await res.json() : null;
  abort.abort();
  return { status: res.status, body };
}

/** Every row of every stable table, hashed: equal before and after means nothing changed. */
async function databaseFingerprint(): Promise<Record<string, string>> {
  const tables: { name: string }[] = await t.db.dataSource.query(
    `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1`,
  );
  const stable = tables.map((r) => r.name).filter((n) => !VOLATILE.has(n));
  const sql = stable
    .map(
      (n) => `SELECT '${n}' AS name, md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) AS hash FROM ${n} x`,
    )
    .join(' UNION ALL ');
  const rows: { name: string; hash: string }[] = await t.db.dataSource.query(sql);
  return Object.fromEntries(rows.map((r) => [r.name, r.hash]));
}

function authFor(security: string): Record<string, string> {
  if (security === 'admin') return t.admin;
  if (security === 'runtime') return t.runtimeAuth;
  if (security === 'bearer') return u.auth;
  return {};
}

it(
  'never answers 5xx, and a refused request changes nothing',
  async () => {
    expect(operations.length).toBeGreaterThan(60);
    const failures: string[] = [];
    for (const op of operations) {
      const input = fc.record({
        segment: hostileSegment,
        query: queryFor(op.query),
        body: bodyFor(op.bodyKeys),
      });
      await fc.assert(
        fc.asyncProperty(input, async ({ segment, query, body }) => {
          const path = op.path.replace(/\{[^}]+\}/g, segment);
          const qs = op.query
            .flatMap((name, i) =>
              query[i] === undefined ? [] : [`${encodeURIComponent(name)}=${encodeHostile(query[i]!)}`],
            )
            .join('&');
          const url = qs ? `${path}?${qs}` : path;
          const before = await databaseFingerprint();
          if (op.stream) {
            const res = await streamStatus(url, op.security);
            if (res.status >= 500)
              failures.push(
                `${op.method} ${url.slice(0, 120)} → ${res.status} ${JSON.stringify(res.body).slice(0, 160)}`,
              );
            return;
          }
          let call = t.http[op.method.toLowerCase() as 'get'](url).set(authFor(op.security));
          if (op.method !== 'GET' && op.method !== 'DELETE')
            call = call.set('Content-Type', 'application/json').send(JSON.stringify(body));
          const res = await call;
          const label = `${op.method} ${url.slice(0, 120)} body=${JSON.stringify(body)?.slice(0, 160)} → ${res.status} ${JSON.stringify(res.body).slice(0, 160)}`;
          if (res.status >= 500) failures.push(label);
          if (res.status >= 400 && res.status < 500) {
            const after = await databaseFingerprint();
            const changed = Object.keys(after).filter((n) => after[n] !== before[n]);
            if (changed.length > 0) failures.push(`${label} changed ${changed.join(', ')}`);
          }
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
    }
    expect(failures).toEqual([]);
    // Every documented operation × RUNS requests, each with a fingerprint of the whole database:
    // about 40 s alone, and past a minute while the rest of the suite shares the two cores.
  },
  60_000 + RUNS * 30_000,
);
