import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';

/**
 * `/mcp` through the composed app, driven by the official MCP SDK client over Streamable HTTP: the tools are the
 * user operations of the OpenAPI document, and a tool call answers exactly what the HTTP operation answers.
 */
let t: TestApi;
let server: Server;
let base: string;
let owner: TestUser;
let stranger: TestUser;
const clients: Client[] = [];

beforeAll(async () => {
  t = await createTestApi({ startBackground: false });
  owner = await t.createUser({ balance: 25 });
  stranger = await t.createUser({ balance: 25 });
  server = createServer(t.runtime.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const c of clients) await c.close();
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

async function connect(user: TestUser): Promise<Client> {
  const client = new Client({ name: 'voiceplane-tests', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: user.auth } }),
  );
  clients.push(client);
  return client;
}

type Doc = {
  paths: Record<
    string,
    Record<
      string,
      {
        security?: Record<string, unknown>[];
        'x-alias-of'?: unknown;
        responses: Record<string, { content?: Record<string, unknown> }>;
      }
    >
  >;
};
/** An answer that never ends (server-sent events) is no tool's result. */
const streams = (op: Doc['paths'][string][string]) =>
  Object.values(op.responses).some((r) => 'text/event-stream' in (r.content ?? {}));
const errorBody = (r: CallToolResult) => JSON.parse((r.content[0] as { text: string }).text);
const call = (client: Client, name: string, args: Record<string, unknown> = {}) =>
  client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

describe('tools/list', () => {
  let tools: Tool[];
  beforeAll(async () => {
    tools = (await (await connect(owner)).listTools()).tools;
  });

  it('has one tool per user operation of the document (sandbox controls included, aliases, admin, runtime, ingress and streams not)', async () => {
    const doc = (await t.http.get('/api/openapi.json')).body as Doc;
    const userOperations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(
          ([, op]) =>
            /^\/api\/(user|sandbox)\//.test(path) &&
            !op['x-alias-of'] &&
            !streams(op) &&
            (op.security ?? []).some((s) => 'bearer' in s),
        )
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    const described = tools.map((tool) => /\(`([A-Z]+ [^`]+)`\)\.$/.exec(tool.description ?? '')?.[1]);
    expect(described.sort()).toEqual(userOperations.sort());
    expect(new Set(tools.map((tool) => tool.name)).size).toBe(tools.length);
    expect(described.some((d) => /\/api\/(admin|runtime|providers|hooks|automate)\//.test(d!))).toBe(false);
    expect(userOperations).toEqual(
      expect.arrayContaining(['POST /api/sandbox/chatapp/inbound-message', 'GET /api/user/analytics/calls']),
    );
    expect(described).not.toContain('GET /api/user/events/stream');
    expect(userOperations).not.toEqual(
      expect.arrayContaining(['POST /api/user/folders', 'GET /api/user/assistants/{id}']),
    );
  });

  it('names them in the product’s words, describes them by their summaries, annotates them by method', () => {
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    for (const name of [
      'get_account',
      'list_assistants',
      'create_assistant',
      'send_freeform_message',
      'request_call_permission',
      'apply_automation_template',
      'disable_conversation_ai',
      'search_phone_numbers',
      'list_mid_call_tools',
      'get_call_recording',
    ])
      expect(byName.has(name)).toBe(true);
    expect(byName.get('get_call_recording')!.description).toMatch(/`GET \/api\/user\/calls\/\{id\}\/recording`/);
    expect(byName.get('get_account')!.annotations).toEqual(
      expect.objectContaining({ readOnlyHint: true, destructiveHint: false, idempotentHint: true }),
    );
    expect(byName.get('create_assistant')!.annotations).toEqual(
      expect.objectContaining({ readOnlyHint: false, destructiveHint: false, idempotentHint: false }),
    );
    expect(byName.get('delete_assistant')!.annotations).toEqual(
      expect.objectContaining({ readOnlyHint: false, destructiveHint: true, idempotentHint: true }),
    );
    expect(byName.get('get_assistant')!.inputSchema).toEqual(
      expect.objectContaining({ type: 'object', required: ['id'] }),
    );
    expect(Object.keys(byName.get('create_assistant')!.inputSchema.properties!)).toEqual(
      expect.arrayContaining(['name', 'system_prompt']),
    );
    expect(Object.keys(byName.get('list_calls')!.inputSchema.properties!)).toEqual(
      expect.arrayContaining(['page', 'per_page']),
    );
    expect(Object.keys(byName.get('send_freeform_message')!.inputSchema.properties!)).toEqual(
      expect.arrayContaining(['sender_id', 'message', 'idempotency_key']),
    );
    expect(byName.get('get_account')!.inputSchema.properties).not.toHaveProperty('idempotency_key');
  });

  it('declares input and output schemas that compile as JSON Schema', () => {
    const validator = new AjvJsonSchemaValidator();
    expect(() =>
      validator.getValidator({ type: 'object', properties: { a: { type: 'nonsense' } } } as never),
    ).toThrow();
    for (const tool of tools) {
      expect(() => validator.getValidator(tool.inputSchema)).not.toThrow();
      expect(tool.outputSchema).toEqual(expect.objectContaining({ type: 'object' }));
      expect(() => validator.getValidator(tool.outputSchema!)).not.toThrow();
    }
  });

  it('every read that needs no input answers structured content its output schema accepts (the client checks it)', async () => {
    const client = await connect(owner);
    const reads = tools.filter((tool) => tool.annotations?.readOnlyHint && !(tool.inputSchema.required ?? []).length);
    expect(reads.length).toBeGreaterThan(20);
    let answered = 0;
    for (const tool of reads) {
      const result = await call(client, tool.name);
      if (!result.isError) answered += 1;
      if (!result.isError) expect(result.structuredContent).toEqual(expect.any(Object));
    }
    expect(answered).toBeGreaterThan(reads.length - 3);
  });
});

describe('tools/call', () => {
  it('a read answers what the HTTP operation answers', async () => {
    const result = await call(await connect(owner), 'get_account');
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual((await t.http.get('/api/user/me').set(owner.auth)).body);
    const list = await call(await connect(owner), 'list_assistants');
    expect(list.structuredContent).toEqual(expect.any(Object));
  });

  it('a create creates, once, for the caller', async () => {
    const client = await connect(owner);
    const created = await call(client, 'create_assistant', { name: 'Made by MCP', system_prompt: 'Be brief.' });
    expect(created.isError).toBeFalsy();
    const id = (created.structuredContent as { data: { id: number; name: string } }).data.id;
    const read = await t.http.get(`/api/user/assistant/${id}`).set(owner.auth);
    expect(read.status).toBe(200);
    expect(read.body.data.name).toBe('Made by MCP');
    expect((await call(client, 'get_assistant', { id })).structuredContent).toEqual(read.body);
  });

  it('a validation failure is a tool error carrying the 422 body, and changes nothing', async () => {
    const before = (await t.http.get('/api/user/assistants').set(owner.auth)).body;
    const result = await call(await connect(owner), 'create_assistant', { name: '', temperature: 'hot' });
    expect(result.isError).toBe(true);
    const http = await t.http.post('/api/user/assistant').set(owner.auth).send({ name: '', temperature: 'hot' });
    expect(http.status).toBe(422);
    expect(errorBody(result)).toEqual(http.body);
    expect(result._meta).toEqual({ http_status: 422 });
    expect((await t.http.get('/api/user/assistants').set(owner.auth)).body).toEqual(before);
  });

  it('another account’s id is a tool error carrying the 404 body', async () => {
    const foreign = await t.http.post('/api/user/assistant').set(stranger.auth).send({ name: 'Not yours' });
    const result = await call(await connect(owner), 'get_assistant', { id: foreign.body.data.id });
    expect(result.isError).toBe(true);
    expect(errorBody(result)).toEqual(
      (await t.http.get(`/api/user/assistant/${foreign.body.data.id}`).set(owner.auth)).body,
    );
    expect(result._meta).toEqual({ http_status: 404 });
    const deleted = await call(await connect(owner), 'delete_assistant', { id: foreign.body.data.id });
    expect(deleted.isError).toBe(true);
    expect((await t.http.get(`/api/user/assistant/${foreign.body.data.id}`).set(stranger.auth)).status).toBe(200);
  });

  it('a path value left out is a tool error in the validation shape, never a different route', async () => {
    const result = await call(await connect(owner), 'delete_assistant', {});
    expect(result.isError).toBe(true);
    expect(errorBody(result)).toEqual({
      message: 'The given data was invalid.',
      errors: { id: ['The id field is required.'] },
    });
  });

  it('a freeform send charges exactly once, the same as over HTTP', async () => {
    const user = await t.createUser({ balance: 5 });
    const client = await connect(user);
    const balance = async () =>
      (await t.http.get('/api/user/billing/balance').set(user.auth)).body.total_balance as number;
    const sender = await call(client, 'create_sender', {
      phone_number: `+49151${String(Date.now() % 1_000_000).padStart(6, '0')}77`,
      display_name: 'Acme',
    });
    const senderId = (sender.structuredContent as { data: { id: number } }).data.id;
    // The customer writes first (a sandbox control): the 24-hour window is open.
    const inbound = await call(client, 'sandbox_receive_message', {
      sender_id: senderId,
      from_phone: '+14155551234',
      text: 'Hello?',
    });
    expect(inbound.isError).toBeFalsy();
    const start = await balance();
    const sent = await call(client, 'send_freeform_message', {
      sender_id: senderId,
      recipient_phone: '+14155551234',
      message: 'Hi from MCP',
    });
    expect(sent.isError).toBeFalsy();
    expect(sent.structuredContent).toEqual(expect.objectContaining({ success: true }));
    const viaMcp = start - (await balance());
    expect(viaMcp).toBeGreaterThan(0);
    await t.http
      .post('/api/user/chatapp/send-freeform')
      .set(user.auth)
      .send({ sender_id: senderId, recipient_phone: '+14155551234', message: 'Hi from HTTP' })
      .expect(200);
    const viaHttp = start - viaMcp - (await balance());
    expect(viaMcp).toBeCloseTo(viaHttp, 6);
    const outbox = await call(client, 'sandbox_list_outbox');
    expect(JSON.stringify(outbox.structuredContent).split('Hi from MCP').length - 1).toBe(1);

    // An assistant retrying with the same idempotency_key is answered from the first call, not charged again.
    const retry = {
      sender_id: senderId,
      recipient_phone: '+14155551234',
      message: 'Retried',
      idempotency_key: 'mcp-retry-1',
    };
    const beforeRetries = await balance();
    const first = await call(client, 'send_freeform_message', retry);
    const second = await call(client, 'send_freeform_message', retry);
    expect(first.isError).toBeFalsy();
    expect(second.structuredContent).toEqual(first.structuredContent);
    expect(beforeRetries - (await balance())).toBeCloseTo(viaMcp, 6);
  });

  it('spends the key’s rate limit: the message and the operation it runs each count', async () => {
    const limited = await t.createUser({ plan: { api_rate_limit_per_minute: 8 } });
    const client = await connect(limited);
    const outcomes: string[] = [];
    for (let i = 0; i < 8; i += 1) {
      const result = await call(client, 'get_account').then(
        (r) => (r.isError ? `tool ${(r._meta as { http_status: number }).http_status}` : 'ok'),
        (e: Error) => (/Too Many Attempts/.test(e.message) ? 'mcp 429' : e.message),
      );
      outcomes.push(result);
    }
    expect(outcomes[0]).toBe('ok');
    expect(outcomes.every((o) => ['ok', 'tool 429', 'mcp 429'].includes(o))).toBe(true);
    expect(outcomes.filter((o) => o === 'ok').length).toBeLessThanOrEqual(4);
    expect(outcomes[outcomes.length - 1]).toBe('mcp 429');
  });

  it('an unknown tool is the protocol’s error', async () => {
    await expect(call(await connect(owner), 'drop_all_tables')).rejects.toThrow(/Unknown tool/);
  });
});

describe('the /mcp endpoint', () => {
  const ACCEPT = 'application/json, text/event-stream';
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
  };

  it('is 401 without a key, like the user API', async () => {
    const res = await t.http.post('/mcp').set('Accept', ACCEPT).send(initialize);
    expect([res.status, res.body]).toEqual([401, { error: 'Unauthorized' }]);
    expect(res.headers['www-authenticate']).toBe('Bearer');
    const wrong = await t.http
      .post('/mcp')
      .set('Accept', ACCEPT)
      .set('Authorization', 'Bearer vp_nope')
      .send(initialize);
    expect(wrong.status).toBe(401);
  });

  it('answers initialize with a plain JSON-RPC result and the rate-limit headers', async () => {
    const res = await t.http.post('/mcp').set(owner.auth).set('Accept', ACCEPT).send(initialize);
    expect(res.status).toBe(200);
    expect(res.body.result.serverInfo.name).toBe('voiceplane');
    expect(res.headers['x-ratelimit-limit']).toBeDefined();
    expect(res.headers['mcp-session-id']).toBeUndefined();
  });

  it('answers bad input with the protocol’s errors, never a 500', async () => {
    const post = () =>
      t.http.post('/mcp').set(owner.auth).set('Accept', ACCEPT).set('Content-Type', 'application/json');
    const garbage = await post().send('{"jsonrpc": nope');
    expect([garbage.status, garbage.body.error.code]).toEqual([400, -32700]);
    const notRpc = await post().send(JSON.stringify({ hello: 'world' }));
    expect([notRpc.status, notRpc.body.error.code]).toEqual([400, -32700]);
    const huge = await post().send(JSON.stringify({ ...initialize, padding: 'x'.repeat(2 * 1024 * 1024) }));
    expect([huge.status, huge.body.error.code]).toEqual([413, -32000]);
    const noAccept = await t.http.post('/mcp').set(owner.auth).send(initialize);
    expect([noAccept.status, noAccept.body.error.code]).toEqual([406, -32000]);
    const text = await t.http
      .post('/mcp')
      .set(owner.auth)
      .set('Accept', ACCEPT)
      .set('Content-Type', 'text/plain')
      .send('hi');
    expect(text.status).toBe(415);
    const get = await t.http.get('/mcp').set(owner.auth).set('Accept', 'text/event-stream');
    expect([get.status, get.headers.allow]).toEqual([405, 'POST']);
    const unknownMethod = await post().send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/explode' }));
    expect(unknownMethod.status).toBeLessThan(500);
  });
});
