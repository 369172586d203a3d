import { PassThrough } from 'node:stream';
import { createTestApi, roomInTheMinute, TestApi, TestUser } from '@voiceplane/test-env';
import { MAX_BATCH_CALLS } from '@voiceplane/adapter-http';

/**
 * What `/mcp` does with hostile or malformed messages: batches are bounded and every call in one is
 * counted, `tools/list` stays cheap, and every malformed call gets the protocol's invalid-request or
 * invalid-params error (or a tool result carrying the API's body) — never an internal error — with a
 * debug line saying why.
 */
let t: TestApi;
let owner: TestUser;
let log = '';

beforeAll(async () => {
  const sink = new PassThrough();
  sink.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
  t = await createTestApi({ logTo: sink, logLevel: 'debug', startBackground: false });
  owner = await t.createUser({ balance: 25 });
});
afterAll(async () => t.close());

const ACCEPT = 'application/json, text/event-stream';
const post = (user: TestUser, text: string) =>
  t.http.post('/mcp').set(user.auth).set('Accept', ACCEPT).set('Content-Type', 'application/json').send(text);
const rpc = (user: TestUser, message: unknown) => post(user, JSON.stringify(message));
const call = (id: number, name: unknown, args?: unknown) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});
const listTools = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list' });
type Answer = {
  id: number;
  result?: { isError?: boolean; content: { text: string }[]; _meta?: { http_status: number } };
  error?: { code: number; message: string };
};
const toolError = (answer: Answer) => JSON.parse(answer.result!.content[0].text);
const refusalsLogged = () =>
  log.split('\n').filter((line) => line.includes('"level":20') && line.includes('mcp message refused')).length;

describe('batches', () => {
  it(`refuses a batch of more than ${MAX_BATCH_CALLS} messages with the protocol's invalid request, running none of them`, async () => {
    const before = (await t.http.get('/api/user/folders').set(owner.auth)).body;
    const batch = Array.from({ length: MAX_BATCH_CALLS + 1 }, (_, i) =>
      call(i, 'create_folder', { name: `Batch ${i}` }),
    );
    const res = await rpc(owner, batch);
    expect([res.status, res.body.error.code]).toEqual([400, -32600]);
    expect(res.body.error.message).toContain(String(MAX_BATCH_CALLS));
    expect((await t.http.get('/api/user/folders').set(owner.auth)).body).toEqual(before);
    const empty = await rpc(owner, []);
    expect([empty.status, empty.body.error.code]).toEqual([400, -32600]);
  });

  it('counts every message of a batch against the key’s rate limit', async () => {
    const limited = await t.createUser({ plan: { api_rate_limit_per_minute: 12 } });
    // Both batches in one window of the per-minute limit.
    await roomInTheMinute(15_000);
    const res = await rpc(
      limited,
      Array.from({ length: 10 }, (_, i) => listTools(i)),
    );
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(10);
    expect(res.headers['x-ratelimit-remaining']).toBe('2');
    const over = await rpc(
      limited,
      Array.from({ length: 5 }, (_, i) => listTools(i)),
    );
    expect(over.status).toBe(429);
    expect(over.headers['retry-after']).toBeDefined();
  });

  it('answers tools/list small, and the same bytes every time', async () => {
    const first = await rpc(owner, listTools(1));
    const second = await rpc(owner, listTools(2));
    expect(first.status).toBe(200);
    expect(second.text.replace('"id":2', '"id":1')).toBe(first.text);
    const tools = first.body.result.tools.length;
    expect(tools).toBeGreaterThan(100);
    // The list grows with the API, so its size is bounded per tool: a description and an input schema each.
    expect(first.text.length / tools).toBeLessThan(1_000);
    // On the wire it is compressed, for clients that take gzip (the SDK's fetch does).
    const wire = await rpc(owner, listTools(1)).set('Accept-Encoding', 'gzip');
    expect(wire.headers['content-encoding']).toBe('gzip');
    expect(Number(wire.headers['content-length']) / tools).toBeLessThan(200);
    expect(wire.text).toBe(first.text);
    const plain = await rpc(owner, listTools(1)).set('Accept-Encoding', 'gzip;q=0, identity');
    expect([plain.headers['content-encoding'], plain.text]).toEqual([undefined, first.text]);
  });
});

describe('malformed calls', () => {
  it('a lone surrogate in a path value is a tool error in the validation shape', async () => {
    const res = await rpc(owner, call(1, 'get_assistant', { id: '\ud800' }));
    expect(res.status).toBe(200);
    expect(res.body.result.isError).toBe(true);
    expect(res.body.result._meta).toEqual({ http_status: 422 });
    expect(toolError(res.body)).toEqual({
      message: 'The given data was invalid.',
      errors: { id: ['The id field must be a string or an integer.'] },
    });
    const object = await rpc(owner, call(2, 'delete_assistant', { id: { $gt: 0 } }));
    expect(toolError(object.body).errors).toEqual({ id: ['The id field must be a string or an integer.'] });
  });

  it('a message nested 5,000 deep is an invalid request', async () => {
    const deep = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    const res = await post(
      owner,
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_folder","arguments":${deep}}}`,
    );
    expect([res.status, res.body.error.code]).toEqual([400, -32600]);
    expect(res.body.error.message).toMatch(/nested/);
  });

  it('a tool name that is not a string, or arguments that are not an object, are invalid params with a short message', async () => {
    const bad: [unknown, unknown][] = [
      [42, {}],
      [{ name: 'get_account' }, {}],
      [null, {}],
      ['get_account', 'x'],
      ['get_account', [1]],
      ['get_account', 5],
      ['get_account', null],
    ];
    const res = await rpc(
      owner,
      bad.map(([name, args], i) => call(i, name, args)),
    );
    expect(res.status).toBe(200);
    for (const answer of res.body as Answer[]) {
      expect(answer.error?.code).toBe(-32602);
      expect(answer.error!.message.length).toBeLessThan(100);
      expect(answer.error!.message).not.toMatch(/\n| at |invalid_type|expected/);
    }
    const notObjectParams = await rpc(owner, { jsonrpc: '2.0', id: 9, method: 'tools/list', params: { cursor: 5 } });
    expect(notObjectParams.body.error.code).toBe(-32602);
  });

  it('answers the good calls of a batch that also holds bad ones', async () => {
    const res = await rpc(owner, [call(1, 'get_account', {}), call(2, 7, {}), listTools(3)]);
    const byId = new Map((res.body as Answer[]).map((a) => [a.id, a]));
    expect(byId.get(1)!.result!.isError).toBeFalsy();
    expect(byId.get(2)!.error!.code).toBe(-32602);
    expect(byId.get(3)!.result).toHaveProperty('tools');
  });

  it('never answers an internal error, and logs each refusal at debug', async () => {
    const before = refusalsLogged();
    const messages = [call(1, 'get_assistant', { id: '\udc00x' }), call(2, ['x'], {}), call(3, 'get_account', 'no')];
    for (const message of messages) {
      const res = await rpc(owner, message);
      expect(JSON.stringify(res.body)).not.toContain('-32603');
    }
    expect(refusalsLogged() - before).toBe(messages.length);
    expect(log).not.toMatch(/Maximum call stack|URI malformed/);
  });
});

describe('idempotency_key', () => {
  it('is a string of 1 to 255 printable characters, or the call is a 422 tool result that changes nothing', async () => {
    const user = await t.createUser({ balance: 5 });
    const topUps = async () =>
      (await t.db.dataSource.query(`SELECT count(*)::int AS n FROM top_ups WHERE user_id = $1`, [user.id]))[0]
        .n as number;
    for (const [i, key] of [{ r: 2 }, 7, true, '', 'x'.repeat(256), 'tab\tkey', ['k']].entries()) {
      const res = await rpc(user, call(i, 'create_top_up', { amount: 6, idempotency_key: key }));
      expect(res.body.result.isError).toBe(true);
      expect(res.body.result._meta).toEqual({ http_status: 422 });
      expect(Object.keys(toolError(res.body).errors)).toEqual(['idempotency_key']);
    }
    expect(await topUps()).toBe(0);
    const first = await rpc(user, call(10, 'create_top_up', { amount: 6, idempotency_key: 'top-up-a' }));
    const again = await rpc(user, call(11, 'create_top_up', { amount: 6, idempotency_key: 'top-up-a' }));
    expect(first.body.result.isError).toBeFalsy();
    expect(again.body.result.structuredContent).toEqual(first.body.result.structuredContent);
    expect(await topUps()).toBe(1);
  });
});
