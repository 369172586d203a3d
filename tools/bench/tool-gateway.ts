/**
 * What the mid-call tool gateway adds to a tool call: the same local endpoint
 * called directly and through the gateway, in one run.
 *   1. Latency, one request at a time (what a live call waits for), interleaved so drift hits all alike:
 *      - direct: plain node:http keep-alive POST, the same body and headers the gateway sends;
 *      - gateway in-process: InvokeToolForCall (call context, tool, signing secret, build, sign,
 *        guarded send, invocation record) — what the sandbox runtime calls;
 *      - gateway over HTTP: POST /api/runtime/tool-calls through the composed api, same client as direct.
 *   2. Throughput with autocannon: the runtime route against a bare express + pg handler doing the
 *      same reads, signature, outbound request and record, and against the endpoint alone.
 *   npx tsc -b && node tools/dist/bench/tool-gateway.js     (DATABASE_URL=… for real PostgreSQL)
 */
import { createHmac, randomBytes } from 'node:crypto';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import express from 'express';
import { Pool } from 'pg';
import pino from 'pino';
import { InProcessMessageBus } from '@voiceplane/adapter-local-bus';
import { composeApi, loadConfig } from '@voiceplane/composition';
import { InvokeToolForCall, TOKENS } from '@voiceplane/application';
import { benchDatabase, listen, measure, report, runBench } from './lib/harness';
import { benchUser } from './lib/composed-api';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 3000);
const WARMUP = Math.min(300, ITERATIONS);
const ANSWER = '{"status":"shipped","eta":"2026-03-04"}';

const agent = new Agent({ keepAlive: true, maxSockets: 16 });

/** One keep-alive HTTP exchange; resolves with the status once the body is read. */
function exchange(url: string, method: string, headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, agent },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function json(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, {
    method,
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function main(): Promise<void> {
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(ANSWER.length) });
      res.end(ANSWER);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const target = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

  const db = await benchDatabase();
  const bus = new InProcessMessageBus();
  // The endpoint is on loopback, which the production policy refuses.
  const config = { ...loadConfig({}), logLevel: 'warn', allowPrivateTargets: true };
  const runtime = await composeApi(config, { dataSource: db.dataSource, logger: pino({ level: 'warn' }), bus });
  const api = await listen(runtime.app);

  const user = await benchUser(api.url, runtime.adminToken);
  const auth = { Authorization: `Bearer ${user.token}` };
  const tool = await json(`${api.url}/api/user/tools`, 'POST', auth, {
    name: 'check_order',
    description: 'Look up an order',
    method: 'POST',
    endpoint: `${target}/orders/{order_id}`,
    headers: [{ name: 'X-Key', value: 'abc' }],
    static_fields: [{ key: 'source', value: 'voice' }],
    schema: [{ name: 'order_id', type: 'string', description: 'The order number', required: true }],
  });
  const toolId = (tool.body.data as { id: number }).id;
  const assistant = await json(`${api.url}/api/user/assistant`, 'POST', auth, {
    name: 'Bench',
    system_prompt: 'Be brief.',
    tool_ids: [toolId],
  });
  const assistantId = (assistant.body.data as { id: number }).id;
  const call = await json(`${api.url}/api/user/make_call`, 'POST', auth, {
    assistant_id: assistantId,
    phone_number: '+14155551234',
  });
  if (call.status !== 200) throw new Error(`make_call failed: ${call.status} ${JSON.stringify(call.body)}`);
  const callId = call.body.call_id as number;

  const invoke = runtime.container.get<InvokeToolForCall>(TOKENS.InvokeToolForCall);
  const runtimeHeaders = { Authorization: `Bearer ${runtime.runtimeToken}`, 'content-type': 'application/json' };
  const runtimeBody = JSON.stringify({ call_id: callId, tool_id: toolId, params: { order_id: 'A-1001' } });
  const directHeaders = {
    accept: 'application/json, */*;q=0.5',
    'content-type': 'application/json; charset=utf-8',
    'x-key': 'abc',
  };
  const directBody = '{"source":"voice"}';

  const check = await invoke.execute({ callId, toolId, params: { order_id: 'A-1001' }, invocationId: null });
  if (!check.ok || !check.value.ok) throw new Error(`gateway check failed: ${JSON.stringify(check)}`);

  const contenders = {
    direct: async () => {
      if ((await exchange(`${target}/orders/A-1001`, 'POST', directHeaders, directBody)) !== 200)
        throw new Error('direct call failed');
    },
    inProcess: async () => {
      const r = await invoke.execute({ callId, toolId, params: { order_id: 'A-1001' }, invocationId: null });
      if (!r.ok || !r.value.ok) throw new Error('gateway call failed');
    },
    overHttp: async () => {
      if ((await exchange(`${api.url}/api/runtime/tool-calls`, 'POST', runtimeHeaders, runtimeBody)) !== 200)
        throw new Error('runtime route failed');
    },
  };
  const samples: Record<keyof typeof contenders, number[]> = { direct: [], inProcess: [], overHttp: [] };
  for (let i = 0; i < WARMUP + ITERATIONS; i++) {
    for (const name of Object.keys(contenders) as Array<keyof typeof contenders>) {
      const started = performance.now();
      await contenders[name]();
      if (i >= WARMUP) samples[name].push(performance.now() - started);
    }
  }
  const stats = (name: keyof typeof contenders) => {
    const sorted = [...samples[name]].sort((a, b) => a - b);
    return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
  };
  const direct = stats('direct');
  const rows: Array<[string, { p50: number; p99: number }]> = [
    ['endpoint called directly', direct],
    ['through the gateway, in-process', stats('inProcess')],
    ['through POST /api/runtime/tool-calls', stats('overHttp')],
  ];
  const ms = (v: number) => `${v.toFixed(2).padStart(6)} ms`;
  process.stdout.write(
    `\nTool gateway latency, one request at a time (${ITERATIONS} each, ${process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite'})\n`,
  );
  for (const [label, s] of rows) {
    const overhead =
      label === rows[0][0] ? '' : `   added p50 ${ms(s.p50 - direct.p50)}   added p99 ${ms(s.p99 - direct.p99)}`;
    process.stdout.write(`  ${label.padEnd(38)} p50 ${ms(s.p50)}   p99 ${ms(s.p99)}${overhead}\n`);
  }

  const pool = new Pool({ connectionString: db.url, max: process.env.DATABASE_URL ? 20 : 8 });
  const bare = express();
  bare.use(express.json());
  bare.post('/tool-calls', async (req, res) => {
    const body = req.body as { call_id: number; tool_id: number; params: { order_id: string } };
    // The same reads as the gateway, side by side: call, tool, the owner's signing secret.
    const [calls, tools, secrets] = await Promise.all([
      pool.query('SELECT * FROM calls WHERE id = $1', [body.call_id]),
      pool.query('SELECT * FROM tools WHERE id = $1', [body.tool_id]),
      pool.query('SELECT s.* FROM webhook_signing_secrets s JOIN tools t ON t.user_id = s.user_id WHERE t.id = $1', [
        body.tool_id,
      ]),
    ]);
    if (!calls.rows[0] || !tools.rows[0]) {
      res.status(404).json({ message: 'Not found' });
      return;
    }
    const tool = tools.rows[0];
    const url = (tool.endpoint as string).replace('{order_id}', encodeURIComponent(body.params.order_id));
    const payload = JSON.stringify(
      Object.fromEntries((tool.static_fields as Array<{ key: string; value: string }>).map((f) => [f.key, f.value])),
    );
    const webhookId = `tcl_${randomBytes(16).toString('hex')}`;
    const timestamp = Math.floor(Date.now() / 1000);
    const key = Buffer.from((secrets.rows[0].secret as string).slice('whsec_'.length), 'base64');
    const signature = `v1,${createHmac('sha256', key).update(`${webhookId}.${timestamp}.${payload}`).digest('base64')}`;
    const started = performance.now();
    const status = await exchange(
      url,
      'POST',
      {
        ...directHeaders,
        'user-agent': 'bare',
        'webhook-id': webhookId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signature,
      },
      payload,
    );
    const result = {
      ok: status === 200,
      status_code: status,
      content: ANSWER,
      truncated: false,
      duration_ms: Math.round(performance.now() - started),
      error: null,
      warnings: [],
    };
    void pool.query(
      `INSERT INTO tool_invocations (id, call_id, user_id, tool_id, name, ok, status_code, duration_ms, error, result, created_at, completed_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, NULL, $9, now(), now())`,
      [
        webhookId,
        body.call_id,
        tool.user_id,
        tool.id,
        tool.name,
        result.ok,
        status,
        result.duration_ms,
        JSON.stringify(result),
      ],
    );
    res.json(result);
  });
  const baseline = await listen(bare);

  const subject = await measure(
    'POST /api/runtime/tool-calls',
    `${api.url}/api/runtime/tool-calls`,
    runtimeHeaders,
    'POST',
    runtimeBody,
  );
  const bareRun = await measure(
    'bare express + pg (same work)',
    `${baseline.url}/tool-calls`,
    runtimeHeaders,
    'POST',
    runtimeBody,
  );
  const endpoint = await measure(
    'endpoint called directly',
    `${target}/orders/A-1001`,
    directHeaders,
    'POST',
    directBody,
  );
  report('Tool call throughput', subject, bareRun);
  report('Tool call throughput against the endpoint alone', subject, endpoint);

  agent.destroy();
  await baseline.close();
  // Requests autocannon left in flight finish before the pools close.
  await new Promise((r) => setTimeout(r, 500));
  await pool.end();
  await api.close();
  await bus.close();
  receiver.closeAllConnections();
  await new Promise((r) => receiver.close(r));
  await db.close();
}

runBench(main);
