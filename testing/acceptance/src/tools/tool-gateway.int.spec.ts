import { createHmac } from 'node:crypto';
import dns from 'node:dns';
import { createServer, IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { createTestApi, roomInTheMinute, TestApi, TestUser } from '@voiceplane/test-env';

/**
 * Render and test against receivers on 127.0.0.1: the exact request, the
 * AI-facing result of every outcome, signing, and the outbound policy.
 */

interface Received {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

interface Receiver {
  readonly requests: Received[];
  connections(): number;
  url(path?: string): string;
  close(): Promise<void>;
}

type Reply = (request: IncomingMessage, response: ServerResponse) => void;

const opened: Receiver[] = [];

async function receiver(reply: Reply = (_q, r) => r.end('{"ok": true}')): Promise<Receiver> {
  const requests: Received[] = [];
  let connections = 0;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      requests.push({
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      reply(request, response);
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const r: Receiver = {
    requests,
    connections: () => connections,
    url: (path = '/') => `http://127.0.0.1:${port}${path}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  opened.push(r);
  return r;
}

const SIGNING_HEADERS_AT_SEND_TIME = [
  { name: 'webhook-timestamp', value: '<generated at send time>' },
  { name: 'webhook-signature', value: '<generated at send time>' },
];

let t: TestApi;
let strict: TestApi;

beforeAll(async () => {
  // No background workers: nothing here needs them, and they would only add load to the database.
  t = await createTestApi({ startBackground: false });
  // Same database, production policy: loopback and private targets refused.
  strict = await createTestApi({ db: t.db, config: { allowPrivateTargets: false }, startBackground: false });
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((r) => r.close()));
});
afterAll(async () => {
  await strict.close();
  await t.close();
});

/** Each test gets its own account: the test route allows 10 calls a minute per user. */
async function toolFor(body: Record<string, unknown>, api: TestApi = t): Promise<{ user: TestUser; id: number }> {
  const user = await api.createUser();
  const res = await api.http
    .post('/api/user/tools')
    .set(user.auth)
    .send({ name: 'check_order', description: 'Look up an order', method: 'POST', ...body });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { user, id: res.body.data.id };
}

async function signingSecrets(userId: number): Promise<{ secret: string }> {
  const rows = await t.db.dataSource.query(`SELECT secret FROM webhook_signing_secrets WHERE user_id = $1`, [userId]);
  return rows[0];
}

function sign(secret: string, id: string, timestamp: string, body: string): string {
  return createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64'))
    .update(`${id}.${timestamp}.${body}`)
    .digest('base64');
}

const orderTool = (endpoint: string) => ({
  endpoint,
  headers: [
    { name: 'X-Key', value: 'abc' },
    { name: 'X-Customer', value: '{{customer_name}}' },
  ],
  static_fields: [{ key: 'source', value: 'voice' }],
  schema: [
    { name: 'order_id', type: 'string', description: 'The order number', required: true },
    { name: 'quantity', type: 'number', description: 'How many', required: true },
    { name: 'note', type: 'string', description: 'Anything else' },
  ],
});

describe('POST /api/user/tools/{id}/render', () => {
  it('shows the exact request without sending anything', async () => {
    const target = await receiver();
    const { user, id } = await toolFor(orderTool(`${target.url('/orders/{order_id}')}?aid={{assistant_id}}`));
    const res = await t.http
      .post(`/api/user/tools/${id}/render`)
      .set(user.auth)
      .send({
        params: { order_id: 'A-1001', quantity: '2', unknown: 'x' },
        variables: { assistant_id: 101, customer_name: 'Ann' },
      });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        method: 'POST',
        url: target.url('/orders/A-1001?aid=101'),
        headers: [
          { name: 'Accept', value: 'application/json, */*;q=0.5' },
          { name: 'User-Agent', value: 'voiceplane/1.0.0' },
          { name: 'X-Voiceplane-Event', value: 'tool_call' },
          { name: 'X-Voiceplane-Tool-Id', value: String(id) },
          { name: 'X-Key', value: 'abc' },
          { name: 'X-Customer', value: 'Ann' },
          { name: 'Content-Type', value: 'application/json; charset=utf-8' },
          { name: 'webhook-id', value: '<generated at send time>' },
          ...SIGNING_HEADERS_AT_SEND_TIME,
        ],
        body_format: 'json',
        body: '{"quantity":2,"source":"voice"}',
        omitted_params: ['note'],
        missing_required: [],
        invalid_params: [],
        unresolved_variables: [],
        would_send: true,
        target_check: { scheme: 'http', host: '127.0.0.1', status: 'unchecked' },
      },
    });
    expect(target.connections()).toBe(0);
  });

  it('lists what is missing, invalid or unresolved, and would not send', async () => {
    const { user, id } = await toolFor({
      ...orderTool('https://api.example.com/orders/{order_id}?c={{campaign}}'),
      method: 'GET',
    });
    const res = await t.http
      .post(`/api/user/tools/${id}/render`)
      .set(user.auth)
      .send({ params: { quantity: 'two' } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      method: 'GET',
      url: 'https://api.example.com/orders/?c=&source=voice',
      body: null,
      omitted_params: ['note'],
      missing_required: ['order_id'],
      invalid_params: ['quantity'],
      unresolved_variables: ['campaign', 'customer_name'],
      would_send: false,
      target_check: { scheme: 'https', host: 'api.example.com', status: 'unchecked' },
    });
    expect(res.body.data.headers.map((h: { name: string }) => h.name)).not.toContain('Content-Type');
  });

  it('never asks DNS', async () => {
    const lookup = jest.spyOn(dns.promises, 'lookup');
    const plain = jest.spyOn(dns, 'lookup');
    try {
      const { user, id } = await toolFor({ endpoint: 'https://no-such-host.invalid/x' });
      const res = await t.http.post(`/api/user/tools/${id}/render`).set(user.auth).send({});
      expect(res.body.data.target_check).toEqual({
        scheme: 'https',
        host: 'no-such-host.invalid',
        status: 'unchecked',
      });
      // Other parts of the process (database pool, background work) may resolve their own hosts.
      const asked = [...lookup.mock.calls, ...plain.mock.calls].map((call) => call[0]);
      expect(asked).not.toContain('no-such-host.invalid');
    } finally {
      lookup.mockRestore();
      plain.mockRestore();
    }
  });

  it.each([
    [{ params: [1] }, { params: ['The params must be an object.'] }],
    [{ variables: 'x' }, { variables: ['The variables must be an object.'] }],
    [{ call_id: 'abc' }, { call_id: ['The call id must be an integer.'] }],
    [{ call_id: 4812 }, { call_id: ['The selected call id is invalid.'] }],
  ])('refuses %p', async (body, errors) => {
    const { user, id } = await toolFor({ endpoint: 'https://api.example.com/x' });
    const res = await t.http.post(`/api/user/tools/${id}/render`).set(user.auth).send(body);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: 'The given data was invalid.', errors });
  });

  it("answers 404 for another user's tool and for ids of the wrong shape, whatever the body", async () => {
    const { id } = await toolFor({ endpoint: 'https://api.example.com/x' });
    const stranger = await t.createUser();
    for (const path of [
      `/api/user/tools/${id}/render`,
      '/api/user/tools/abc/render',
      '/api/user/tools/999999/render',
      `/api/user/tools/${id}/test`,
    ]) {
      for (const body of [{}, { params: [1] }]) {
        const res = await t.http.post(path).set(stranger.auth).send(body);
        expect([res.status, res.body]).toEqual([404, { message: 'Tool not found' }]);
      }
    }
  });

  it('refuses automation tools', async () => {
    const user = await t.createUser();
    const rows = await t.db.dataSource.query(
      `INSERT INTO tools (user_id, name, description, type, automation_id) VALUES ($1, 'auto', 'Automation', 'automation', 'aut_x') RETURNING id`,
      [user.id],
    );
    for (const action of ['render', 'test']) {
      const res = await t.http.post(`/api/user/tools/${rows[0].id}/${action}`).set(user.auth).send({});
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ message: 'Automation tools run inside voiceplane and cannot be rendered or tested.' });
    }
  });
});

describe('POST /api/user/tools/{id}/test', () => {
  it('sends the rendered request, signed, and answers what the AI would read', async () => {
    const target = await receiver((_q, r) => {
      r.writeHead(200, { 'content-type': 'application/json' });
      r.end('{\n  "status": "shipped",\n  "eta": "2026-03-04"\n}');
    });
    const { user, id } = await toolFor(orderTool(target.url('/orders/{order_id}')));
    const res = await t.http
      .post(`/api/user/tools/${id}/test`)
      .set(user.auth)
      .send({ params: { order_id: 'A 1001/x', quantity: 2, note: 'ring twice' }, variables: { customer_name: 'Ann' } });

    expect(res.status).toBe(200);
    const webhookId = res.body.data.request.headers.find((h: { name: string }) => h.name === 'webhook-id').value;
    expect(webhookId).toMatch(/^tcl_[0-9A-Za-z]{22}$/);
    expect(res.body).toEqual({
      data: {
        request: {
          method: 'POST',
          url: target.url('/orders/A%201001%2Fx'),
          headers: [
            { name: 'Accept', value: 'application/json, */*;q=0.5' },
            { name: 'User-Agent', value: 'voiceplane/1.0.0' },
            { name: 'X-Voiceplane-Event', value: 'tool_call' },
            { name: 'X-Voiceplane-Tool-Id', value: String(id) },
            { name: 'X-Key', value: 'abc' },
            { name: 'X-Customer', value: 'Ann' },
            { name: 'Content-Type', value: 'application/json; charset=utf-8' },
            { name: 'webhook-id', value: webhookId },
            ...SIGNING_HEADERS_AT_SEND_TIME,
          ],
          body_format: 'json',
          body: '{"quantity":2,"note":"ring twice","source":"voice"}',
          omitted_params: [],
          missing_required: [],
          invalid_params: [],
          unresolved_variables: [],
          would_send: true,
        },
        result: {
          ok: true,
          status_code: 200,
          content: '{"status":"shipped","eta":"2026-03-04"}',
          truncated: false,
          duration_ms: expect.any(Number),
          error: null,
          warnings: [],
        },
      },
    });

    expect(target.requests).toHaveLength(1);
    const [sent] = target.requests;
    expect(sent).toMatchObject({
      method: 'POST',
      url: '/orders/A%201001%2Fx',
      body: '{"quantity":2,"note":"ring twice","source":"voice"}',
    });
    expect(sent.headers).toMatchObject({
      accept: 'application/json, */*;q=0.5',
      'user-agent': 'voiceplane/1.0.0',
      'x-voiceplane-event': 'tool_call',
      'x-voiceplane-tool-id': String(id),
      'x-key': 'abc',
      'x-customer': 'Ann',
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(sent.body)),
      'webhook-id': webhookId,
    });
    expect(sent.headers['x-voiceplane-call-id']).toBeUndefined();
    const timestamp = sent.headers['webhook-timestamp'] as string;
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(30);
    const { secret } = await signingSecrets(user.id);
    expect(sent.headers['webhook-signature']).toBe(`v1,${sign(secret, webhookId, timestamp, sent.body)}`);
  });

  it('signs with both secrets during a rotation grace period, newest first', async () => {
    const target = await receiver();
    const { user, id } = await toolFor({ endpoint: target.url('/x'), method: 'GET' });
    const previous = `whsec_${Buffer.from('an older secret of 32 bytes!!!!!').toString('base64')}`;
    await t.db.dataSource.query(
      `UPDATE webhook_signing_secrets SET previous_secret = $2, previous_expires_at = now() + interval '1 hour' WHERE user_id = $1`,
      [user.id, previous],
    );
    await t.http.post(`/api/user/tools/${id}/test`).set(user.auth).send({});
    const [sent] = target.requests;
    const { secret } = await signingSecrets(user.id);
    const signed = [secret, previous].map(
      (s) => `v1,${sign(s, sent.headers['webhook-id'] as string, sent.headers['webhook-timestamp'] as string, '')}`,
    );
    expect(sent.headers['webhook-signature']).toBe(signed.join(' '));

    await t.db.dataSource.query(
      `UPDATE webhook_signing_secrets SET previous_expires_at = now() - interval '1 second' WHERE user_id = $1`,
      [user.id],
    );
    await t.http.post(`/api/user/tools/${id}/test`).set(user.auth).send({});
    expect((target.requests[1].headers['webhook-signature'] as string).split(' ')).toHaveLength(1);
  });

  it.each([
    ['GET', 'json', '/orders?x=1&quantity=2&gift=true&source=voice%20app', '', undefined],
    ['DELETE', 'json', '/orders?x=1&quantity=2&gift=true&source=voice%20app', '', undefined],
    [
      'PUT',
      'json',
      '/orders?x=1',
      '{"quantity":2,"gift":true,"source":"voice app"}',
      'application/json; charset=utf-8',
    ],
    ['PATCH', 'form', '/orders?x=1', 'quantity=2&gift=true&source=voice+app', 'application/x-www-form-urlencoded'],
    ['POST', 'form', '/orders?x=1', 'quantity=2&gift=true&source=voice+app', 'application/x-www-form-urlencoded'],
  ])('%s with body format %s', async (method, bodyFormat, url, body, contentType) => {
    const target = await receiver();
    const { user, id } = await toolFor({
      endpoint: target.url('/orders?x=1'),
      method,
      body_format: bodyFormat,
      static_fields: [{ key: 'source', value: 'voice app' }],
      schema: [
        { name: 'quantity', type: 'number', description: 'How many', required: true },
        { name: 'gift', type: 'boolean', description: 'Wrapped' },
      ],
    });
    const res = await t.http
      .post(`/api/user/tools/${id}/test`)
      .set(user.auth)
      .send({ params: { quantity: '2', gift: 'true' } });
    expect(res.body.data.result.ok).toBe(true);
    expect(target.requests).toEqual([expect.objectContaining({ method, url, body })]);
    expect(target.requests[0].headers['content-type']).toBe(contentType);
  });

  it.each([
    [
      'text is passed as is',
      200,
      'text/plain',
      'Order A-1001 has shipped.',
      { ok: true, status_code: 200, content: 'Order A-1001 has shipped.', truncated: false, error: null },
    ],
    [
      'HTML is passed as is',
      200,
      'text/html',
      '<p>shipped</p>',
      { ok: true, status_code: 200, content: '<p>shipped</p>', error: null },
    ],
    [
      'an empty answer is empty content',
      204,
      'text/plain',
      '',
      { ok: true, status_code: 204, content: '', error: null },
    ],
    [
      'a 404 is an http_error with the body',
      404,
      'application/json',
      '{"error":"no such order"}',
      {
        ok: false,
        status_code: 404,
        content: JSON.stringify({ error: 'http_error', status: 404, body: '{"error":"no such order"}' }),
        truncated: false,
        error: 'http_error',
      },
    ],
    [
      'a 500 is an http_error',
      500,
      'text/plain',
      'boom',
      {
        ok: false,
        status_code: 500,
        content: '{"error":"http_error","status":500,"body":"boom"}',
        error: 'http_error',
      },
    ],
  ])('%s', async (_case, status, type, body, result) => {
    const target = await receiver((_q, r) => {
      r.writeHead(status, { 'content-type': type });
      r.end(body);
    });
    const { user, id } = await toolFor({ endpoint: target.url('/x') });
    const res = await t.http.post(`/api/user/tools/${id}/test`).set(user.auth).send({});
    expect(res.status).toBe(200);
    expect(res.body.data.result).toEqual({
      truncated: false,
      duration_ms: expect.any(Number),
      warnings: [],
      ...result,
    });
  });

  it('returns a redirect as an http_error and never follows it', async () => {
    const elsewhere = await receiver();
    const target = await receiver((_q, r) => {
      r.writeHead(302, { location: elsewhere.url('/next') });
      r.end('moved');
    });
    const { user, id } = await toolFor({ endpoint: target.url('/x') });
    const res = await t.http.post(`/api/user/tools/${id}/test`).set(user.auth).send({});
    expect(res.body.data.result).toMatchObject({
      ok: false,
      status_code: 302,
      error: 'http_error',
      content: '{"error":"http_error","status":302,"body":"moved"}',
    });
    expect(elsewhere.connections()).toBe(0);
  });

  it('cuts a long answer at 8,000 characters and a long error body at 2,000', async () => {
    let status = 200;
    const target = await receiver((_q, r) => {
      r.writeHead(status, { 'content-type': 'text/plain' });
      r.end('x'.repeat(20_000));
    });
    const { user, id } = await toolFor({ endpoint: target.url('/x') });
    const ok = await t.http.post(`/api/user/tools/${id}/test`).set(user.auth).send({});
    expect(ok.body.data.result).toMatchObject({
      ok: true,
      truncated: true,
      content: `${'x'.repeat(8_000)}…[truncated]`,
    });
    status = 503;
    const failed = await t.http.post(`/api/user/tools/${id}/test`).set(user.auth).send({});
    expect(failed.body.data.result).toMatchObject({
      ok: false,
      truncated: true,
      content: JSON.stringify({ error: 'http_error', status: 503, body: 'x'.repeat(2_000) }),
    });
  });

  it.each([
    ['declared', true],
    ['streamed', false],
  ])('aborts an answer over 1 MB (%s length)', async (_case, declare) => {
    const size = 1024 * 1024 + 1;
    const target = await receiver((_q, r) => {
      r.writeHead(200, declare ? { 'content-length': String(size) } : {});
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      for (let sent = 0; sent < size; sent += chunk.length)
        r.write(chunk.subarray(0, Math.min(chunk.length, size - sent)));
      r.end();
    });
    const { user, id } = await toolFor({ endpoint: target.url('/big') });
    const res = await t.http.post(`/api/user/tools/${id}/test`).set(user.auth).send({});
    expect(res.body.data.result).toEqual({
      ok: false,
      status_code: 200,
      content: '{"error":"response_too_large"}',
      truncated: false,
      duration_ms: expect.any(Number),
      error: 'response_too_large',
      warnings: [],
    });
  });

  it("gives up on a receiver that hangs after the tool's timeout", async () => {
    const target = await receiver(() => undefined);
    const { user, id } = await toolFor({ endpoint: target.url('/slow'), timeout: 1 });
    const started = Date.now();
    const res = await t.http.post(`/api/user/tools/${id}/test`).set(user.auth).send({});
    const elapsed = Date.now() - started;
    expect(res.body.data.result).toEqual({
      ok: false,
      status_code: null,
      content: '{"error":"timeout","message":"The tool did not answer within 1 second."}',
      truncated: false,
      duration_ms: expect.any(Number),
      error: 'timeout',
      warnings: [],
    });
    expect(res.body.data.result.duration_ms).toBeGreaterThanOrEqual(990);
    // The receiver never answers, so any bound proves the timeout held; this one leaves room for a busy machine.
    expect(elapsed).toBeLessThan(1_000 + 5_000);
    expect(target.requests).toHaveLength(1);
  });

  it('reports a refused connection', async () => {
    const target = await receiver();
    const url = target.url('/x');
    await target.close();
    const { user, id } = await toolFor({ endpoint: url });
    const res = await t.http.post(`/api/user/tools/${id}/test`).set(user.auth).send({});
    expect(res.body.data.result).toEqual({
      ok: false,
      status_code: null,
      content: '{"error":"connection_failed"}',
      truncated: false,
      duration_ms: expect.any(Number),
      error: 'connection_failed',
      warnings: [],
    });
  });

  it('sends nothing when a required parameter is missing or invalid', async () => {
    const target = await receiver();
    const { user, id } = await toolFor({ ...orderTool(target.url('/orders/{order_id}')), headers: [] });
    const missing = await t.http
      .post(`/api/user/tools/${id}/test`)
      .set(user.auth)
      .send({ params: { quantity: 1 } });
    expect(missing.body.data.result).toEqual({
      ok: false,
      status_code: null,
      content: '{"error":"missing_params","missing":["order_id"]}',
      truncated: false,
      duration_ms: 0,
      error: 'missing_params',
      warnings: [],
    });
    expect(missing.body.data.request.headers).toContainEqual({ name: 'webhook-id', value: '<generated at send time>' });
    const invalid = await t.http
      .post(`/api/user/tools/${id}/test`)
      .set(user.auth)
      .send({ params: { order_id: 'A', quantity: 1.5 } });
    expect(invalid.body.data.result).toMatchObject({
      error: 'invalid_params',
      content: '{"error":"invalid_params","invalid":["quantity"]}',
    });
    expect(target.connections()).toBe(0);
  });

  it('warns about unknown variables and sends them as empty', async () => {
    const target = await receiver();
    const { user, id } = await toolFor({ endpoint: target.url('/x?c={{campaign}}'), method: 'GET' });
    const res = await t.http.post(`/api/user/tools/${id}/test`).set(user.auth).send({});
    expect(res.body.data.result.warnings).toEqual(['Unknown variable "campaign" was replaced by an empty string.']);
    expect(target.requests[0].url).toBe('/x?c=');
  });

  it('sends a header value beyond Latin-1 as its UTF-8 bytes', async () => {
    const target = await receiver();
    const { user, id } = await toolFor({
      endpoint: target.url('/x'),
      headers: [{ name: 'X-Customer', value: '{{name}}' }],
    });
    const res = await t.http
      .post(`/api/user/tools/${id}/test`)
      .set(user.auth)
      .send({ variables: { name: '山田 ☎' } });
    expect(res.body.data.result.ok).toBe(true);
    expect(Buffer.from(target.requests[0].headers['x-customer'] as string, 'latin1').toString('utf8')).toBe('山田 ☎');
  });

  it("answers 404 for another user's tool without sending", async () => {
    const target = await receiver();
    const { id } = await toolFor({ endpoint: target.url('/x') });
    const stranger = await t.createUser();
    const res = await t.http.post(`/api/user/tools/${id}/test`).set(stranger.auth).send({});
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Tool not found' });
    expect(target.connections()).toBe(0);
  });

  it('allows 10 tests a minute per user, render not counted', async () => {
    const target = await receiver();
    const { user, id } = await toolFor({ endpoint: target.url('/x') });
    // A fixed window that resets mid-burst would let an eleventh through.
    await roomInTheMinute(10_000);
    for (let i = 0; i < 10; i++) {
      expect((await t.http.post(`/api/user/tools/${id}/test`).set(user.auth).send({})).status).toBe(200);
    }
    const refused = await t.http.post(`/api/user/tools/${id}/test`).set(user.auth).send({});
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ message: 'Too Many Attempts.', retry_after: expect.any(Number) });
    expect(refused.headers['retry-after']).toBe(String(refused.body.retry_after));
    expect(target.requests).toHaveLength(10);
    expect((await t.http.post(`/api/user/tools/${id}/render`).set(user.auth).send({})).status).toBe(200);
    const other = await toolFor({ endpoint: target.url('/x') });
    expect((await t.http.post(`/api/user/tools/${other.id}/test`).set(other.user.auth).send({})).status).toBe(200);
  });
});

describe('outbound policy with private targets refused', () => {
  it('refuses a loopback endpoint at write time', async () => {
    const user = await strict.createUser();
    const res = await strict.http
      .post('/api/user/tools')
      .set(user.auth)
      .send({ name: 'x', description: 'x', method: 'GET', endpoint: 'http://127.0.0.1:8080/x' });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      message: 'The given data was invalid.',
      errors: { endpoint: ['The endpoint must be a public http or https URL.'] },
    });
  });

  it('shows a stored loopback endpoint as blocked and sends nothing to it', async () => {
    const target = await receiver();
    // Stored while the deployment allowed private targets.
    const { user, id } = await toolFor({ endpoint: target.url('/x') }, t);
    const render = await strict.http.post(`/api/user/tools/${id}/render`).set(user.auth).send({});
    expect(render.body.data).toMatchObject({
      would_send: false,
      target_check: { scheme: 'http', host: '127.0.0.1', status: 'blocked' },
    });
    const res = await strict.http.post(`/api/user/tools/${id}/test`).set(user.auth).send({});
    expect(res.body.data.result).toEqual({
      ok: false,
      status_code: null,
      content: '{"error":"blocked_target"}',
      truncated: false,
      duration_ms: 0,
      error: 'blocked_target',
      warnings: [],
    });
    expect(target.connections()).toBe(0);
  });

  it('checks the address DNS answers and sends nothing when it is private', async () => {
    const target = await receiver();
    const port = new URL(target.url()).port;
    const { user, id } = await toolFor({ endpoint: `http://tools.example.test:${port}/x` }, strict);
    const lookup = jest.spyOn(dns.promises, 'lookup').mockImplementation((async (host: string) => {
      if (host !== 'tools.example.test') throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
      return [{ address: '127.0.0.1', family: 4 }];
    }) as unknown as typeof dns.promises.lookup);
    try {
      const render = await strict.http.post(`/api/user/tools/${id}/render`).set(user.auth).send({});
      expect(render.body.data).toMatchObject({
        would_send: true,
        target_check: { host: 'tools.example.test', status: 'unchecked' },
      });
      expect(lookup).not.toHaveBeenCalled();
      const res = await strict.http.post(`/api/user/tools/${id}/test`).set(user.auth).send({});
      expect(res.body.data.result).toMatchObject({
        ok: false,
        status_code: null,
        error: 'blocked_target',
        content: '{"error":"blocked_target"}',
      });
      expect(lookup).toHaveBeenCalledWith('tools.example.test', expect.anything());
      expect(target.connections()).toBe(0);
    } finally {
      lookup.mockRestore();
    }
  });
});
