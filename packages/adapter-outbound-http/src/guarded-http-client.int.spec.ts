import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { OutboundRequest } from '@voiceplane/application';
import { Webhook } from 'standardwebhooks';
import { GuardedHttpClient, type GuardedHttpClientOptions } from './guarded-http-client';
import {
  refusedPort,
  startFirstBytesRecorder,
  startReceiver,
  tableResolver,
  tapDials,
  type Receiver,
  type Reply,
} from '../test-support/local-network';

const USER_AGENT = 'voiceplane/0.0.0-test';
const ONE_MB = 1024 * 1024;

let tap: ReturnType<typeof tapDials>;
const opened: Array<{ close(): unknown }> = [];

beforeAll(() => {
  tap = tapDials();
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((resource) => resource.close()));
  tap.dials.length = 0;
});
afterAll(() => tap.restore());

function client(options: Partial<GuardedHttpClientOptions> = {}): GuardedHttpClient {
  const created = new GuardedHttpClient({
    userAgent: USER_AGENT,
    allowPrivateTargets: true,
    requireHttps: false,
    resolve: tableResolver({}).resolve,
    ...options,
  });
  opened.push(created);
  return created;
}

async function receiver(reply?: Reply): Promise<Receiver> {
  const started = await startReceiver(reply);
  opened.push(started);
  return started;
}

const get = (url: string, extra: Partial<OutboundRequest> = {}): OutboundRequest => ({
  method: 'GET',
  url,
  timeoutMs: 2_000,
  ...extra,
});
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/**
 * How late a budget's timer may fire on a busy machine. Where the receiver never answers, any bound
 * at all proves the budget was enforced, so the bounds below leave room for a slow machine.
 */
const TIMER_SLACK_MS = 2_500;
const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

function bytes(size: number, declareLength: boolean): Reply {
  return (_request, response) => {
    response.writeHead(200, declareLength ? { 'content-length': String(size) } : {});
    const body = Buffer.alloc(size, 0x62);
    for (let offset = 0; offset < size; offset += 16_384) response.write(body.subarray(offset, offset + 16_384));
    response.end();
  };
}

/** Starts the clock before the work starts: a send begins its budget synchronously, and on a busy machine that part alone can take tens of ms. */
async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const startedAt = performance.now();
  const result = await work();
  return [result, performance.now() - startedAt];
}

describe('answers', () => {
  it.each([
    [200, true, null],
    [201, true, null],
    [204, true, null],
    [400, false, 'http_error'],
    [404, false, 'http_error'],
    [429, false, 'http_error'],
    [500, false, 'http_error'],
    [503, false, 'http_error'],
  ])('returns a %i with ok=%s and error=%s', async (status, ok, error) => {
    const body = status === 204 ? '' : `{"status":${status}}`;
    const target = await receiver((_request, response) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(body);
    });

    const result = await client().send(get(target.url('/orders/42?expand=items')));

    expect(result).toEqual({
      ok,
      statusCode: status,
      headers: expect.objectContaining({ 'content-type': 'application/json' }),
      body,
      durationMs: expect.any(Number),
      error,
    });
    expect(target.requests.map((r) => [r.method, r.url])).toEqual([['GET', '/orders/42?expand=items']]);
  });

  it('returns a body that is not JSON as text, decoding UTF-8 split across chunks', async () => {
    const text = Buffer.from('<p>☎ not json {</p>');
    const target = await receiver((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.write(text.subarray(0, 4)); // ends inside the 3-byte ☎
      setTimeout(() => response.end(text.subarray(4)), 20);
    });

    const result = await client().send(get(target.url()));

    expect(result).toMatchObject({ ok: true, statusCode: 200, body: '<p>☎ not json {</p>', error: null });
  });

  it.each([301, 302, 303, 307, 308])('returns a %i as the answer and never follows it', async (status) => {
    const redirectTarget = await receiver();
    const origin = await receiver((_request, response) => {
      response.writeHead(status, { location: redirectTarget.url('/next') });
      response.end('moved');
    });
    const sender = client();

    const result = await sender.send(get(origin.url('/start')));

    expect(result).toMatchObject({ ok: false, statusCode: status, body: 'moved', error: 'http_error' });
    expect(result.headers.location).toBe(redirectTarget.url('/next'));
    expect(origin.requests).toHaveLength(1);
    expect(redirectTarget.requests).toHaveLength(0);
    // The redirect target does count what reaches it.
    await sender.send(get(redirectTarget.url('/next')));
    expect(redirectTarget.requests).toHaveLength(1);
  });
});

describe('budgets and caps', () => {
  it('gives up on a receiver that never answers, within the budget', async () => {
    const target = await receiver(() => undefined);

    const [result, elapsed] = await timed(() => client().send(get(target.url(), { timeoutMs: 300 })));

    expect(result).toEqual({
      ok: false,
      statusCode: null,
      headers: {},
      body: '',
      durationMs: expect.any(Number),
      error: 'timeout',
    });
    expect(target.requests).toHaveLength(1);
    expect(elapsed).toBeGreaterThanOrEqual(295);
    expect(elapsed).toBeLessThan(300 + TIMER_SLACK_MS);
    expect(result.durationMs).toBeGreaterThanOrEqual(295);
  });

  it('counts a body that stalls midway against the same budget', async () => {
    const target = await receiver((_request, response) => {
      response.writeHead(200);
      response.write('partial');
    });

    const [result, elapsed] = await timed(() => client().send(get(target.url(), { timeoutMs: 300 })));

    expect(result).toMatchObject({ ok: false, statusCode: 200, body: '', error: 'timeout' });
    expect(elapsed).toBeLessThan(300 + TIMER_SLACK_MS);
  });

  it('counts name resolution against the total budget', async () => {
    const target = await receiver((_request, response) => {
      setTimeout(() => response.end('late'), 100);
    });
    const slowDns = async () => {
      await delay(150);
      return ['127.0.0.1'];
    };
    const sender = client({ resolve: slowDns });
    const url = `http://slow.test:${target.port}/`;

    // Each part fits in 200 ms, their sum does not.
    expect(await sender.send(get(url, { timeoutMs: 200 }))).toMatchObject({ error: 'timeout' });
    expect(await sender.send(get(url, { timeoutMs: 5_000 }))).toMatchObject({ ok: true, body: 'late' });
  });

  it('times out a resolver that never answers', async () => {
    const sender = client({ resolve: () => new Promise<string[]>(() => undefined) });

    const [result, elapsed] = await timed(() => sender.send(get('http://silent-dns.test/', { timeoutMs: 150 })));

    expect(result).toMatchObject({ statusCode: null, error: 'timeout' });
    expect(elapsed).toBeLessThan(150 + TIMER_SLACK_MS);
    expect(tap.dials).toEqual([]);
  });

  it.each([
    ['a declared length over the default cap', ONE_MB + 1, true, undefined, 'response_too_large'],
    ['a chunked body over the default cap', ONE_MB + 1, false, undefined, 'response_too_large'],
    ['a body exactly at the default cap', ONE_MB, false, undefined, null],
    ['a body exactly at a custom cap', 100, true, 100, null],
    ['a chunked body one byte over a custom cap', 101, false, 100, 'response_too_large'],
  ])('reads %s: error %s', async (_label, size, declareLength, maxResponseBytes, error) => {
    const target = await receiver(bytes(size, declareLength));

    const result = await client().send(get(target.url(), { maxResponseBytes }));

    expect(result).toMatchObject({ statusCode: 200, error, ok: error === null });
    expect(result.body.length).toBe(error === null ? size : 0);
  });

  it('hands back the exact bytes of a binary body only when asked (keepBytes), across chunks', async () => {
    const payload = Buffer.from(Array.from({ length: 40_000 }, (_, i) => (i * 7) % 256));
    const target = await receiver((_request, response) => {
      response.writeHead(200, { 'content-type': 'image/png' });
      for (let offset = 0; offset < payload.length; offset += 16_384)
        response.write(payload.subarray(offset, offset + 16_384));
      response.end();
    });
    const kept = await client().send(get(target.url(), { keepBytes: true }));
    expect(Buffer.from(kept.bytes!).equals(payload)).toBe(true);
    expect((await client().send(get(target.url()))).bytes).toBeUndefined();
  });

  it('aborts an endless body at the cap instead of buffering it', async () => {
    let connectionClosed!: Promise<void>;
    const target = await receiver((_request, response) => {
      connectionClosed = new Promise((resolve) => response.on('close', () => resolve()));
      response.writeHead(200);
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      const pump = (): void => {
        while (!response.destroyed && response.write(chunk));
        if (!response.destroyed) response.once('drain', pump);
      };
      pump();
    });

    const [result, elapsed] = await timed(() => client().send(get(target.url(), { timeoutMs: 10_000 })));

    // Buffering without a cap would have ended in the 10 s budget's 'timeout'.
    expect(result).toMatchObject({ ok: false, statusCode: 200, error: 'response_too_large' });
    expect(elapsed).toBeLessThan(5_000);
    await connectionClosed;
  });
});

describe('connection failures', () => {
  it('reports a refused connection', async () => {
    const port = await refusedPort();

    const result = await client().send(get(`http://127.0.0.1:${port}/`));

    expect(result).toEqual({
      ok: false,
      statusCode: null,
      headers: {},
      body: '',
      durationMs: expect.any(Number),
      error: 'connection_failed',
    });
  });

  it('reports a name that does not resolve, after asking once', async () => {
    const dns = tableResolver({});

    const result = await client({ resolve: dns.resolve }).send(get('http://nowhere.test/'));

    expect(result).toMatchObject({ statusCode: null, error: 'connection_failed' });
    expect(dns.calls).toEqual(['nowhere.test']);
    expect(tap.dials).toEqual([]);
  });

  it('reports a connection cut in the middle of the body', async () => {
    const target = await receiver((_request, response) => {
      response.writeHead(200, { 'content-length': '100' });
      response.write('x'.repeat(10));
      setTimeout(() => response.socket?.destroy(), 20);
    });

    const result = await client().send(get(target.url()));

    expect(result).toMatchObject({ ok: false, statusCode: 200, body: '', error: 'connection_failed' });
  });

  it('does not try to send to a URL that does not parse', async () => {
    const result = await client().send(get('not a url'));

    expect(result).toMatchObject({ statusCode: null, error: 'connection_failed' });
    expect(tap.dials).toEqual([]);
  });
});

describe('what goes on the wire', () => {
  it('sends headers in order, later names replacing earlier ones, framing its own, and the exact body', async () => {
    const target = await receiver();
    const dns = tableResolver({ 'receiver.test': ['127.0.0.1'] });
    const body = JSON.stringify({ name: 'Zoë', note: '☎ call me' });

    await client({ resolve: dns.resolve }).send({
      method: 'POST',
      url: `http://receiver.test:${target.port}/hook?a=1`,
      body,
      eventType: 'tool_call',
      headers: [
        { name: 'Content-Type', value: 'application/json; charset=utf-8' },
        { name: 'X-Tenant', value: 'a' },
        { name: 'x-tenant', value: 'b' },
        { name: 'Host', value: 'evil.example' },
        { name: 'Content-Length', value: '1' },
        { name: 'Connection', value: 'close' },
        { name: 'Transfer-Encoding', value: 'chunked' },
      ],
      timeoutMs: 2_000,
    });

    const [seen] = target.requests;
    const names = seen.rawHeaders.filter((_, i) => i % 2 === 0).map((name) => name.toLowerCase());
    expect(names.slice(0, 4)).toEqual(['user-agent', 'x-voiceplane-event', 'content-type', 'x-tenant']);
    expect(names.filter((name) => name === 'x-tenant')).toHaveLength(1);
    expect(seen.headers).toMatchObject({
      'user-agent': USER_AGENT,
      'x-voiceplane-event': 'tool_call',
      'content-type': 'application/json; charset=utf-8',
      'x-tenant': 'b',
      host: `receiver.test:${target.port}`,
      'content-length': String(Buffer.byteLength(body)),
      connection: 'keep-alive',
    });
    expect(seen.headers['transfer-encoding']).toBeUndefined();
    expect([seen.method, seen.url]).toEqual(['POST', '/hook?a=1']);
    expect(seen.body.equals(Buffer.from(body, 'utf8'))).toBe(true);
  });

  it('sends Content-Length: 0 on a POST without a body and no length on a GET', async () => {
    const target = await receiver();
    const sender = client();

    await sender.send({ method: 'POST', url: target.url(), timeoutMs: 2_000 });
    await sender.send(get(target.url()));

    expect(target.requests.map((r) => [r.method, r.headers['content-length'], r.headers['transfer-encoding']])).toEqual(
      [
        ['POST', '0', undefined],
        ['GET', undefined, undefined],
      ],
    );
  });

  it('keeps the connection alive between requests', async () => {
    const target = await receiver();
    const sender = client();

    await sender.send(get(target.url('/1')));
    await sender.send(get(target.url('/2')));

    expect(target.requests).toHaveLength(2);
    expect(target.connections()).toBe(1);
  });

  it('dials the address it resolved, resolving once, with the original name as Host', async () => {
    const target = await receiver();
    const dns = tableResolver({ 'receiver.test': ['127.0.0.1'] });

    // System DNS is switched off in this file: an answer proves the socket used our address.
    const result = await client({ resolve: dns.resolve }).send(get(`http://receiver.test:${target.port}/`));

    expect(result).toMatchObject({ ok: true, body: 'ok' });
    expect(dns.calls).toEqual(['receiver.test']);
    expect(tap.dials).toEqual([{ host: 'receiver.test', port: target.port, addresses: ['127.0.0.1'] }]);
    expect(target.requests[0].headers.host).toBe(`receiver.test:${target.port}`);
  });

  it('keeps the original name for TLS SNI while dialing the pinned address', async () => {
    const recorder = await startFirstBytesRecorder();
    opened.push(recorder);
    const dns = tableResolver({ 'secure.test': ['127.0.0.1'] });

    const result = await client({ resolve: dns.resolve }).send(get(`https://secure.test:${recorder.port}/`));

    // The recorder hangs up after the ClientHello, so the handshake fails.
    expect(result).toMatchObject({ statusCode: null, error: 'connection_failed' });
    expect(tap.dials).toEqual([{ host: 'secure.test', port: recorder.port, addresses: ['127.0.0.1'] }]);
    const [clientHello] = recorder.received;
    expect(clientHello[0]).toBe(0x16); // TLS handshake record
    expect(clientHello.includes('secure.test')).toBe(true);
  });
});

describe('Standard Webhooks signing', () => {
  const verifiable = (headers: NodeJS.Dict<string | string[]>) => headers as Record<string, string>;

  it('signs id, attempt timestamp and exact body so that the reference library verifies it', async () => {
    const target = await receiver();
    const secret = newSecret();
    const attemptAt = new Date(Date.now() - 90_000);
    const payload = { event: 'post_call', transcript: 'AI: Hallo Zoë ☎' };

    await client({ clock: { now: () => attemptAt } }).send({
      method: 'POST',
      url: target.url('/hook'),
      body: JSON.stringify(payload),
      eventType: 'post_call',
      signing: { secrets: [secret], webhookId: 'msg_2b7c' },
      timeoutMs: 2_000,
    });

    const [seen] = target.requests;
    expect(seen.headers).toMatchObject({
      'webhook-id': 'msg_2b7c',
      'webhook-timestamp': String(Math.floor(attemptAt.getTime() / 1000)),
      'x-voiceplane-event': 'post_call',
    });
    expect(new Webhook(secret).verify(seen.body.toString('utf8'), verifiable(seen.headers))).toEqual(payload);
    expect(() => new Webhook(newSecret()).verify(seen.body.toString('utf8'), verifiable(seen.headers))).toThrow();
  });

  it('signs with both secrets during a rotation, newest first, each verifiable on its own', async () => {
    const target = await receiver();
    const [newest, previous] = [newSecret(), newSecret()];
    const body = '{"rotation":true}';

    await client().send({
      method: 'POST',
      url: target.url(),
      body,
      signing: { secrets: [newest, previous], webhookId: 'msg_rot' },
      timeoutMs: 2_000,
    });

    const headers = verifiable(target.requests[0].headers);
    const entries = headers['webhook-signature'].split(' ');
    expect(entries).toHaveLength(2);
    expect(new Webhook(newest).verify(body, headers)).toEqual({ rotation: true });
    expect(new Webhook(previous).verify(body, headers)).toEqual({ rotation: true });
    expect(new Webhook(newest).verify(body, { ...headers, 'webhook-signature': entries[0] })).toEqual({
      rotation: true,
    });
    expect(new Webhook(previous).verify(body, { ...headers, 'webhook-signature': entries[1] })).toEqual({
      rotation: true,
    });
    expect(() => new Webhook(previous).verify(body, { ...headers, 'webhook-signature': entries[0] })).toThrow();
  });

  it('signs a request without a body over ""', async () => {
    const target = await receiver();
    const secret = newSecret();

    await client().send(get(target.url(), { signing: { secrets: [secret], webhookId: 'tcl_9' } }));

    const [seen] = target.requests;
    expect(seen.body.length).toBe(0);
    expect(() => new Webhook(secret).verify('', verifiable(seen.headers))).not.toThrow();
    expect(() => new Webhook(secret).verify('x', verifiable(seen.headers))).toThrow();
  });

  it('sends no signature headers when none is asked for', async () => {
    const target = await receiver();

    await client().send(get(target.url()));

    expect(Object.keys(target.requests[0].headers).filter((name) => name.startsWith('webhook-'))).toEqual([]);
  });
});

describe('SSRF guard with private targets refused', () => {
  let internal: Receiver;
  beforeEach(async () => {
    internal = await receiver();
  });

  const PATH = '/secret-path?token=abc';

  it.each<[string, (port: number) => string, Record<string, string[]>, number]>([
    ['a loopback literal', (p) => `http://127.0.0.1:${p}${PATH}`, {}, 0],
    ['loopback in hex', (p) => `http://0x7f.1:${p}${PATH}`, {}, 0],
    ['loopback as one number', (p) => `http://2130706433:${p}${PATH}`, {}, 0],
    ['the IPv6 loopback', (p) => `http://[::1]:${p}${PATH}`, {}, 0],
    ['IPv6-mapped loopback', (p) => `http://[::ffff:127.0.0.1]:${p}${PATH}`, {}, 0],
    ['a private literal', (p) => `http://10.0.0.7:${p}${PATH}`, {}, 0],
    ['link-local metadata literal', (p) => `http://169.254.169.254:${p}${PATH}`, {}, 0],
    ['localhost', (p) => `http://localhost:${p}${PATH}`, { localhost: ['127.0.0.1'] }, 0],
    ['a *.localhost name', (p) => `http://api.localhost:${p}${PATH}`, { 'api.localhost': ['127.0.0.1'] }, 0],
    [
      'the metadata name',
      (p) => `http://metadata.google.internal:${p}${PATH}`,
      { 'metadata.google.internal': ['127.0.0.1'] },
      0,
    ],
    ['the bare metadata name', (p) => `http://metadata:${p}${PATH}`, { metadata: ['127.0.0.1'] }, 0],
    ['a name resolving to loopback', (p) => `http://internal.test:${p}${PATH}`, { 'internal.test': ['127.0.0.1'] }, 1],
    ['a name resolving to 10/8', (p) => `http://private.test:${p}${PATH}`, { 'private.test': ['10.0.0.7'] }, 1],
    ['a name resolving to 192.168/16', (p) => `http://home.test:${p}${PATH}`, { 'home.test': ['192.168.1.1'] }, 1],
    ['a name resolving to link-local', (p) => `http://meta.test:${p}${PATH}`, { 'meta.test': ['169.254.169.254'] }, 1],
    [
      'a name resolving to IPv6-mapped loopback',
      (p) => `http://mapped.test:${p}${PATH}`,
      { 'mapped.test': ['::ffff:127.0.0.1'] },
      1,
    ],
    [
      'a name resolving to IPv6-mapped loopback in hex',
      (p) => `http://hex.test:${p}${PATH}`,
      { 'hex.test': ['::ffff:7f00:1'] },
      1,
    ],
    ['a name resolving to IPv6 unique-local', (p) => `http://ula.test:${p}${PATH}`, { 'ula.test': ['fd00::1'] }, 1],
    ['a name resolving to IPv6 link-local', (p) => `http://ll.test:${p}${PATH}`, { 'll.test': ['fe80::1'] }, 1],
    [
      'a name resolving to NAT64 of a private address',
      (p) => `http://nat64.test:${p}${PATH}`,
      { 'nat64.test': ['64:ff9b::a00:1'] },
      1,
    ],
    [
      'a rebinding answer: public first, loopback second',
      (p) => `http://rebind.test:${p}${PATH}`,
      { 'rebind.test': ['203.0.113.10', '127.0.0.1'] },
      1,
    ],
    [
      'a rebinding answer: loopback first',
      (p) => `http://rebind2.test:${p}${PATH}`,
      { 'rebind2.test': ['127.0.0.1', '203.0.113.10'] },
      1,
    ],
  ])('sends nothing to %s', async (_label, url, table, lookups) => {
    const dns = tableResolver(table);
    const warn = jest.fn();

    const result = await client({ allowPrivateTargets: false, resolve: dns.resolve, logger: { warn } }).send(
      get(url(internal.port)),
    );

    expect(result).toEqual({
      ok: false,
      statusCode: null,
      headers: {},
      body: '',
      durationMs: expect.any(Number),
      error: 'blocked_target',
    });
    expect(dns.calls).toHaveLength(lookups);
    expect(tap.dials).toEqual([]);
    expect(internal.requests).toHaveLength(0);
    expect(internal.connections()).toBe(0);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(JSON.stringify(warn.mock.calls)).not.toContain('token=abc');
  });

  it('does reach the same receiver through the same name when private targets are allowed', async () => {
    const dns = tableResolver({ 'internal.test': ['127.0.0.1'] });

    const result = await client({ allowPrivateTargets: true, resolve: dns.resolve }).send(
      get(`http://internal.test:${internal.port}${PATH}`),
    );

    expect(result).toMatchObject({ ok: true, statusCode: 200 });
    expect(internal.requests).toHaveLength(1);
  });

  it('resolves once: a name that turns into loopback on a second lookup is dialed at its first, checked address', async () => {
    const dns = tableResolver({ 'flip.test': (call) => (call === 1 ? ['203.0.113.10'] : ['127.0.0.1']) });

    const result = await client({ allowPrivateTargets: false, resolve: dns.resolve }).send(
      get(`http://flip.test:${internal.port}${PATH}`),
    );

    expect(dns.calls).toEqual(['flip.test']);
    expect(tap.dials).toEqual([{ host: 'flip.test', port: internal.port, addresses: ['203.0.113.10'] }]);
    expect(internal.requests).toHaveLength(0);
    expect(internal.connections()).toBe(0);
    // The tap refuses the public address so that the test stays on 127.0.0.1.
    expect(result).toMatchObject({ statusCode: null, error: 'connection_failed' });
  });

  it.each([
    ['http when https is required', 'http://public.test/', true],
    ['a non-http scheme', 'ftp://public.test/', false],
    ['userinfo', 'https://user:pass@public.test/', false],
  ])('refuses %s before resolving', async (_label, url, requireHttps) => {
    const dns = tableResolver({ 'public.test': ['203.0.113.10'] });

    const result = await client({ allowPrivateTargets: false, requireHttps, resolve: dns.resolve }).send(get(url));

    expect(result).toMatchObject({ statusCode: null, error: 'blocked_target' });
    expect(dns.calls).toEqual([]);
    expect(tap.dials).toEqual([]);
  });
});
