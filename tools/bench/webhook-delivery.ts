/**
 * Webhook deliveries per second through the whole path — a transaction writes the delivery and its
 * outbox event, the relay publishes it, a consumer claims it, signs it and POSTs it to a receiver
 * on 127.0.0.1, and the outcome is written — next to a bare loop of signed POSTs to the same
 * receiver with the same concurrency, and next to a bare durable loop (plain pg + node:http) that
 * makes the statements any durable delivery needs — insert the delivery row, claim it, POST it,
 * settle it with its attempt row — measured in the same run. The first ratio is the whole price
 * of durability plus the product; the second is the product's own overhead.
 *
 *   npx tsc -b && node tools/dist/bench/webhook-delivery.js
 *   DATABASE_URL=postgres://… node tools/dist/bench/webhook-delivery.js                 single process, in-process bus
 *   DATABASE_URL=… AMQP_URL=amqp://… node tools/dist/bench/webhook-delivery.js           also RabbitMQ + apps/worker process
 *
 * BENCH_DELIVERIES (default 2000) deliveries per run; BENCH_PRODUCERS (default 16) transactions
 * enqueueing at once. The sender handles 64 deliveries at once (SENDER_PREFETCH in apps/api), so
 * both baselines use 64 loops.
 */
import { spawn } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Pool } from 'pg';
import pino from 'pino';
import { InProcessMessageBus } from '@voiceplane/adapter-local-bus';
import { composeApi, loadConfig, type ApiRuntime } from '@voiceplane/composition';
import { TOKENS, WebhookDeliveries } from '@voiceplane/application';
import { benchDatabase, BenchDatabase, listen } from './lib/harness';
import { benchUser } from './lib/composed-api';
import { ownProcessesOnly, recordRound, ROUNDS } from './lib/rounds';

const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 2_000);
const PRODUCERS = Number(process.env.BENCH_PRODUCERS ?? 16);
const SENDER_CONCURRENCY = 64;
const PAYLOAD = {
  id: 4812,
  assistant_id: 101,
  customer_phone: '+14155551234',
  assistant_phone: '+14155550000',
  duration: 87,
  status: 'completed',
  extracted_variables: { status: true, summary: 'Booked a demo for Thursday.' },
  input_variables: { customer_name: 'Ann' },
  transcript: 'AI: Hello Ann, this is Acme.\nCustomer: Hi!',
  created_at: '2026-03-01T10:00:00.000Z',
  finished_at: '2026-03-01T10:01:27.000Z',
  lead: null,
  campaign: null,
};

interface Receiver {
  readonly url: string;
  /** Arrival time (performance.now) of the first request per webhook-id. */
  readonly arrivals: Map<string, number>;
  requests: number;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const arrivals = new Map<string, number>();
  const state = { requests: 0 };
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      state.requests++;
      const id = String(req.headers['webhook-id']);
      if (!arrivals.has(id)) arrivals.set(id, performance.now());
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' });
      res.end('ok');
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    arrivals,
    get requests() {
      return state.requests;
    },
    set requests(n: number) {
      state.requests = n;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface Result {
  readonly label: string;
  readonly perSecond: number;
  readonly p50: number | null;
  readonly p99: number | null;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** One signed keep-alive POST with the headers the product sends. */
function signedPost(receiver: Receiver, agent: Agent, key: Buffer, id: string, body: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timestamp = Math.floor(Date.now() / 1000);
    const signature = `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
    const req = request(
      receiver.url,
      {
        method: 'POST',
        agent,
        headers: {
          'User-Agent': 'voiceplane/bench',
          'X-Voiceplane-Event': 'post_call',
          'Content-Type': 'application/json',
          'webhook-id': id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signature,
          'Content-Length': String(Buffer.byteLength(body)),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve());
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** SENDER_CONCURRENCY loops, each doing `deliver(n)` until `count` are done. */
async function loops(label: string, count: number, deliver: (n: number) => Promise<void>): Promise<Result> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: SENDER_CONCURRENCY }, async () => {
      while (next < count) await deliver(next++);
    }),
  );
  return { label, perSecond: count / ((performance.now() - started) / 1000), p50: null, p99: null };
}

/** The first baseline: signed keep-alive POSTs and nothing else. */
async function bareLoop(receiver: Receiver, count: number): Promise<Result> {
  const key = randomBytes(32);
  const agent = new Agent({ keepAlive: true, maxSockets: SENDER_CONCURRENCY });
  const body = JSON.stringify(PAYLOAD);
  const result = await loops(`bare loop of signed POSTs (${SENDER_CONCURRENCY} at once)`, count, (n) =>
    signedPost(receiver, agent, key, `msg_bare${n}_${randomBytes(6).toString('hex')}`, body),
  );
  agent.destroy();
  return result;
}

/**
 * The second baseline: the least a durable delivery costs, by hand on plain pg — one autocommit
 * statement each to insert the delivery row, claim it under a lease (reading the signing secret in
 * the same statement), and settle it together with its attempt row, around the signed POST. No
 * outbox, bus, transaction blocks or framework: what is left between this and the pipeline is the
 * product's own price.
 */
async function bareDurableLoop(db: BenchDatabase, userId: number, receiver: Receiver, count: number): Promise<Result> {
  // The size of the api's and the worker's pools; embedded PGlite serves one connection at a time.
  const pool = new Pool({ connectionString: db.url, max: process.env.DATABASE_URL ? 20 : 1 });
  const agent = new Agent({ keepAlive: true, maxSockets: SENDER_CONCURRENCY });
  const run = randomBytes(4).toString('hex');
  const result = await loops(
    `bare durable loop: insert, claim, POST, settle (${SENDER_CONCURRENCY} at once)`,
    count,
    async (n) => {
      const id = `dlv_bare${run}_${n}`;
      const now = new Date();
      await pool.query(
        `INSERT INTO webhook_deliveries (id, user_id, event_type, webhook_id, target_url, body, status, max_attempts, next_attempt_at,
         source_type, source_id, subject, request_id, created_at, updated_at)
       VALUES ($1, $2, 'post_call', $3, $4, $5, 'pending', 8, $6, 'assistant', 101, $7, NULL, $6, $6)`,
        [
          id,
          userId,
          `msg_bare${run}_${n}`,
          receiver.url,
          JSON.stringify({ ...PAYLOAD, id: n }),
          now,
          JSON.stringify({ type: 'call', id: n + 1 }),
        ],
      );
      const lease = randomBytes(16).toString('hex');
      const claimedAt = new Date();
      const {
        rows: [claimed],
      } = await pool.query<{ webhook_id: string; target_url: string; body: string; secret: string }>(
        `UPDATE webhook_deliveries d SET locked_until = $3, lease_token = $4
         FROM webhook_signing_secrets s
        WHERE d.id = $1 AND d.status = 'pending' AND d.next_attempt_at <= $2 AND (d.locked_until IS NULL OR d.locked_until <= $2)
          AND s.user_id = d.user_id
       RETURNING d.webhook_id, d.target_url, d.body, s.secret`,
        [id, claimedAt, new Date(claimedAt.getTime() + 30_000), lease],
      );
      const started = performance.now();
      await signedPost(
        receiver,
        agent,
        Buffer.from(claimed.secret.slice('whsec_'.length), 'base64'),
        claimed.webhook_id,
        claimed.body,
      );
      const settledAt = new Date();
      await pool.query(
        `WITH delivery AS (
         UPDATE webhook_deliveries
            SET status = 'succeeded', next_attempt_at = NULL, round_attempts = 1, attempts_count = 1, last_attempt_at = $2,
                last_status_code = 200, last_error = NULL, locked_until = NULL, lease_token = NULL, updated_at = $3
          WHERE id = $1 AND lease_token = $5
         RETURNING seq)
       INSERT INTO webhook_delivery_attempts (delivery_seq, number, at, status_code, duration_ms, error, response_excerpt)
       SELECT seq, 1, $2, 200, $4, NULL, 'ok' FROM delivery`,
        [id, claimedAt, settledAt, Math.round(performance.now() - started), lease],
      );
    },
  );
  agent.destroy();
  await pool.end();
  return result;
}

/** PRODUCERS transactions at a time enqueue `count` deliveries; done when every webhook-id has arrived. */
async function throughThePipeline(
  label: string,
  deliveries: WebhookDeliveries,
  userId: number,
  receiver: Receiver,
  count: number,
): Promise<Result> {
  const committed = new Map<string, number>();
  let next = 0;
  const started = performance.now();
  const producing = Promise.all(
    Array.from({ length: PRODUCERS }, async () => {
      while (next < count) {
        const n = next++;
        const { webhookId } = await deliveries.enqueue({
          userId,
          eventType: 'post_call',
          targetUrl: receiver.url,
          payload: { ...PAYLOAD, id: n },
          source: { type: 'assistant', id: 101 },
          subject: { type: 'call', id: n + 1 },
        });
        committed.set(webhookId, performance.now());
      }
    }),
  );
  await producing;
  const deadline = Date.now() + 300_000;
  while ([...committed.keys()].some((id) => !receiver.arrivals.has(id))) {
    if (Date.now() > deadline) throw new Error(`${label}: deliveries did not all arrive within 5 minutes`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const finished = Math.max(...[...committed.keys()].map((id) => receiver.arrivals.get(id) as number));
  const latencies = [...committed].map(([id, at]) => (receiver.arrivals.get(id) as number) - at).sort((a, b) => a - b);
  return {
    label,
    perSecond: count / ((finished - started) / 1000),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

/** One delivery at a time on an idle pipeline: how long an event takes from commit to the receiver. */
async function latencyAtRest(
  deliveries: WebhookDeliveries,
  userId: number,
  receiver: Receiver,
  count: number,
): Promise<{ p50: number; p99: number }> {
  const latencies: number[] = [];
  for (let n = 0; n < count; n++) {
    const { webhookId } = await deliveries.enqueue({
      userId,
      eventType: 'post_call',
      targetUrl: receiver.url,
      payload: { ...PAYLOAD, id: n },
      source: { type: 'assistant', id: 101 },
      subject: null,
    });
    const committed = performance.now();
    while (!receiver.arrivals.has(webhookId)) await new Promise((resolve) => setImmediate(resolve));
    latencies.push((receiver.arrivals.get(webhookId) as number) - committed);
    // Let the outcome be written before the next one, so each event finds the pipeline idle.
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  latencies.sort((a, b) => a - b);
  return { p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

async function waitForSettled(db: BenchDatabase, count: number): Promise<void> {
  for (;;) {
    const [row] = await db.dataSource.query(
      `SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'succeeded'`,
    );
    if (row.n >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function startWorkerProcess(databaseUrl: string, amqpUrl: string): Promise<{ stop(): Promise<void> }> {
  const run = randomBytes(4).toString('hex');
  const child = spawn(process.execPath, [join(__dirname, '..', '..', '..', 'apps', 'worker', 'dist', 'main.js')], {
    env: {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: databaseUrl,
      AMQP_URL: amqpUrl,
      ALLOW_PRIVATE_TARGETS: '1',
      LOG_LEVEL: 'warn',
      AMQP_EXCHANGE: `vp-bench-${run}.events`,
      AMQP_QUEUE_PREFIX: `vp-bench-${run}`,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // LOG_LEVEL=warn hides the "started" line; give it time to subscribe its queues (compiled from tools/dist/bench).
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  if (child.exitCode !== null) throw new Error('the worker process exited during start');
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** The composed api on the bench database, allowed to send to the receiver on 127.0.0.1. */
async function startApi(db: BenchDatabase): Promise<{ runtime: ApiRuntime; url: string; close(): Promise<void> }> {
  const bus = new InProcessMessageBus();
  const config = { ...loadConfig({}), logLevel: 'warn', allowPrivateTargets: true };
  const runtime = await composeApi(config, { dataSource: db.dataSource, logger: pino({ level: 'warn' }), bus });
  const server = await listen(runtime.app);
  return {
    runtime,
    url: server.url,
    close: async () => {
      await server.close();
      await bus.close();
    },
  };
}

function print(title: string, subject: Result, bare: Result, durable: Result): void {
  const row = (r: Result) =>
    `  ${r.label.padEnd(66)} ${r.perSecond.toFixed(0).padStart(6)} deliveries/s` +
    (r.p50 === null ? '' : `   commit→arrival p50 ${r.p50.toFixed(0)} ms, p99 ${(r.p99 as number).toFixed(0)} ms`);
  process.stdout.write(
    `\n${title}  (${DELIVERIES} deliveries, ${PRODUCERS} producers, ${process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite'})\n`,
  );
  process.stdout.write(`${row(subject)}\n${row(bare)}\n${row(durable)}\n`);
  process.stdout.write(
    `  ratio pipeline / bare POSTs: ${(subject.perSecond / bare.perSecond).toFixed(2)}   pipeline / bare durable: ${(subject.perSecond / durable.perSecond).toFixed(2)}\n`,
  );
}

async function main(): Promise<void> {
  const receiver = await startReceiver();
  if (!ownProcessesOnly) {
    const db = await benchDatabase();
    const api = await startApi(db);
    const user = await benchUser(api.url, api.runtime.adminToken);
    for (const task of api.runtime.background) await task.start();
    const deliveries = api.runtime.container.get<WebhookDeliveries>(TOKENS.WebhookDeliveries);
    // Warm-up: pools, JIT, keep-alive sockets.
    await throughThePipeline('warm-up', deliveries, user.id, receiver, 200);
    await bareLoop(receiver, 200);
    await bareDurableLoop(db, user.id, receiver, 200);
    const pipeline = await throughThePipeline(
      'single process: outbox → in-process bus → sender',
      deliveries,
      user.id,
      receiver,
      DELIVERIES,
    );
    const bare = await bareLoop(receiver, DELIVERIES);
    const durable = await bareDurableLoop(db, user.id, receiver, DELIVERIES);
    print('Webhook delivery, single-process mode', pipeline, bare, durable);
    await waitForSettled(db, 2 * (DELIVERIES + 200));
    const rest = await latencyAtRest(deliveries, user.id, receiver, 200);
    process.stdout.write(
      `  one event at a time: commit→arrival p50 ${rest.p50.toFixed(1)} ms, p99 ${rest.p99.toFixed(1)} ms (relay woken by NOTIFY after each commit; polls every 50 ms only on PGlite)\n`,
    );
    for (const task of [...api.runtime.background].reverse()) await task.stop();
    await api.close();
    await db.close();
  }

  const amqpUrl = process.env.AMQP_URL;
  if (amqpUrl && process.env.DATABASE_URL) {
    const db = await benchDatabase();
    // The api side writes deliveries and outbox rows only; apps/worker relays and delivers.
    const api = await startApi(db);
    const user = await benchUser(api.url, api.runtime.adminToken);
    const worker = await startWorkerProcess(db.url, amqpUrl);
    const deliveries = api.runtime.container.get<WebhookDeliveries>(TOKENS.WebhookDeliveries);
    await throughThePipeline('warm-up', deliveries, user.id, receiver, 200);
    await bareDurableLoop(db, user.id, receiver, 200);
    // Interleaved rounds (pipeline, durable, durable, pipeline, …): a shared machine's load swings.
    let settled = 400; // the warm-ups: 200 through the pipeline, 200 durable
    for (let i = 0; i < ROUNDS; i++) {
      const runPipeline = () =>
        throughThePipeline(
          'outbox → RabbitMQ → apps/worker process → receiver',
          deliveries,
          user.id,
          receiver,
          DELIVERIES,
        );
      const runDurable = () => bareDurableLoop(db, user.id, receiver, DELIVERIES);
      let pipeline: Result;
      let durable: Result;
      if (i % 2 === 0) {
        pipeline = await runPipeline();
        durable = await runDurable();
      } else {
        durable = await runDurable();
        pipeline = await runPipeline();
      }
      settled += 2 * DELIVERIES;
      const bare = await bareLoop(receiver, DELIVERIES);
      print(`Webhook delivery, production topology (round ${i + 1} of ${ROUNDS})`, pipeline, bare, durable);
      recordRound({
        path: 'webhook-delivery-rabbitmq',
        product: pipeline.perSecond,
        twin: durable.perSecond,
        p50: Math.round(pipeline.p50 ?? NaN),
        p99: Math.round(pipeline.p99 ?? NaN),
      });
      // The next round starts on a settled pipeline, as the first did.
      await waitForSettled(db, settled);
    }
    const rest = await latencyAtRest(deliveries, user.id, receiver, 200);
    process.stdout.write(
      `  one event at a time: commit→arrival p50 ${rest.p50.toFixed(1)} ms, p99 ${rest.p99.toFixed(1)} ms (relay woken by NOTIFY after each commit; polls every 50 ms only on PGlite)\n`,
    );
    await worker.stop();
    await api.close();
    await db.close();
  } else {
    process.stdout.write('\n(Set DATABASE_URL and AMQP_URL to measure the RabbitMQ + worker-process path as well.)\n');
  }
  await receiver.close();
}

main().then(
  () => process.exit(0),
  (e) => {
    process.stderr.write(`${(e as Error).stack ?? e}\n`);
    process.exit(1);
  },
);
