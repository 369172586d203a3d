import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';

/**
 * voiceplane's own MCP endpoint offers `send_sms` under the Famulor MCP server's name and input
 * (`{from, to, body}`), and a call answers what `POST /api/user/sms` answers.
 */
let t: TestApi;
let server: Server;
let client: Client;
let user: TestUser;

beforeAll(async () => {
  t = await createTestApi({ startBackground: false });
  user = await t.createUser({ balance: 1 });
  server = createServer(t.runtime.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  client = new Client({ name: 'voiceplane-tests', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`), {
      requestInit: { headers: user.auth },
    }),
  );
});
afterAll(async () => {
  await client.close();
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

it('send_sms takes Famulor’s {from, to, body}, sends once and answers the HTTP body; a refusal is a tool error with the 400', async () => {
  const tool = (await client.listTools()).tools.find((x) => x.name === 'send_sms');
  expect(tool?.inputSchema).toMatchObject({
    properties: { from: expect.any(Object), to: expect.any(Object), body: expect.any(Object) },
    required: expect.arrayContaining(['from', 'to', 'body']),
  });
  const [row] = (await t.db.dataSource.query(
    `INSERT INTO phone_numbers (user_id, phone_number, type, country_code, sms_capable) VALUES ($1, $2, 'purchased', 'DE', true) RETURNING id`,
    [user.id, `+4921${String(process.pid % 10000).padStart(4, '0')}${String(user.id).padStart(4, '0')}`],
  )) as { id: string }[];
  const sent = (await client.callTool({
    name: 'send_sms',
    arguments: { from: Number(row.id), to: '+4915123456789', body: 'Sent by an agent' },
  })) as CallToolResult;
  expect(sent.isError).toBeFalsy();
  expect(sent.structuredContent).toMatchObject({
    message: 'SMS sent successfully',
    data: { to: '+4915123456789', body: 'Sent by an agent', segments: 1, cost: 0.05, status: 'sent' },
  });
  expect((await t.http.get('/api/user/billing/balance').set(user.auth)).body.total_balance).toBe(0.95);

  const refused = (await client.callTool({
    name: 'send_sms',
    arguments: { from: 999999999, to: '+4915123456789', body: 'Hi' },
  })) as CallToolResult;
  expect(refused.isError).toBe(true);
  expect(JSON.parse((refused.content[0] as { text: string }).text)).toEqual({ message: 'From number not found' });
  expect(refused._meta).toEqual({ http_status: 400 });
});
