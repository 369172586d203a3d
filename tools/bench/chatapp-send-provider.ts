/**
 * The chat-app send with a chat app that takes 200 ms per send (a WhatsApp Graph stand-in on
 * 127.0.0.1): voiceplane (apps/api in whatsapp_cloud mode, its own process) against a bare
 * express + pg handler in its own process that reserves, calls and settles the same way with
 * prepared statements (lib/bare-reserve-send.ts), on the same database and the same stand-in, in
 * the same run; this process only drives the load and plays the chat app.
 * 50 accounts each fire 5 sends at once; a round is all 250 sends, and the next round of an
 * account starts no sooner than 2 s after its last (the 5 sends/s per account quota). A send
 * that held the account's balance lock over the provider's answer would make a round take 5 × 200 ms.
 * The two contenders' rounds are interleaved, so both meet the same load on a shared machine.
 *   npx tsc -b && DATABASE_URL=… node tools/dist/bench/chatapp-send-provider.js
 */
import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { benchDatabase, runBench } from './lib/harness';
import { startApiProcess, startBareProcess } from './lib/processes';
import { recordRound } from './lib/rounds';
import { GraphStandIn } from '@voiceplane/stand-ins/whatsapp/graph-stand-in';

const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 50);
const PER_ACCOUNT = 5;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);
const LATENCY_MS = Number(process.env.BENCH_PROVIDER_MS ?? 200);
const CUSTOMER = '+14155551234';
const MESSAGE = 'Your parcel is on its way and will arrive tomorrow between 9 and 12.';
const TOKEN = 'EAAG-bench-token';

interface Account {
  readonly token: string;
  readonly senderId: number;
}
interface Rounds {
  readonly label: string;
  readonly sendsPerSecond: number;
  readonly roundP50: number;
  readonly sendP50: number;
  readonly sendP99: number;
  readonly failed: number;
}

/** Accounts through the admin API with a WhatsApp sender registered through the API (so its credentials are sealed) and an open window. */
async function seed(api: { url: string; adminToken: string }, graph: GraphStandIn, pool: Pool): Promise<Account[]> {
  const accounts: Account[] = [];
  for (let i = 0; i < ACCOUNTS; i++) {
    const created = await fetch(`${api.url}/api/admin/users`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${api.adminToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        name: 'Bench',
        email: `bench-p${i}-${Date.now()}@example.test`,
        balance: 100000,
        plan: { api_rate_limit_per_minute: 100000 },
      }),
    });
    const { user, api_key: key } = (await created.json()) as { user: { id: number }; api_key: { token: string } };
    const phoneNumberId = `2000${String(i).padStart(8, '0')}`;
    graph.addNumber({
      phoneNumberId,
      displayPhoneNumber: `+1 555-${String(i).padStart(7, '0')}`,
      status: 'CONNECTED',
      qualityRating: 'GREEN',
      messagingLimitTier: 'TIER_UNLIMITED',
    });
    const registered = await fetch(`${api.url}/api/user/chatapp/senders`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        phone_number: `+1555${String(i).padStart(7, '0')}`,
        display_name: 'Bench',
        provider_config: { phone_number_id: phoneNumberId, waba_id: '1', access_token: TOKEN },
      }),
    });
    const senderId = ((await registered.json()) as { data: { id: number } }).data.id;
    await pool.query(
      `INSERT INTO conversations (uuid, user_id, sender_id, customer_phone, status, ai_enabled, message_count, last_customer_message_at, ended_count, created_at, updated_at)
       VALUES ($1, $2, $3, $4, 'open', false, 0, now(), 0, now(), now())`,
      [randomUUID(), user.id, senderId, CUSTOMER],
    );
    accounts.push({ token: key.token, senderId });
  }
  return accounts;
}

const send = (url: string, a: Account) =>
  fetch(url, {
    method: 'POST',
    headers: { Authorization: `Bearer ${a.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ sender_id: a.senderId, recipient_phone: CUSTOMER, message: MESSAGE }),
  });

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

interface Tally {
  roundTimes: number[];
  sendTimes: number[];
  failed: number;
  sends: number;
  busy: number;
}

/** One round of one contender: every account fires PER_ACCOUNT sends at once. */
async function round(url: string, accounts: Account[], into: Tally | null): Promise<void> {
  const started = Date.now();
  let failed = 0;
  const times = await Promise.all(
    accounts.flatMap((a) =>
      Array.from({ length: PER_ACCOUNT }, async () => {
        const t0 = performance.now();
        const res = await send(url, a).catch((e: Error) => {
          // A socket lost under load counts as a failed send (reported), not the end of the run.
          if (process.env.BENCH_VERBOSE)
            process.stderr.write(`${e.message} ${String((e as { cause?: unknown }).cause)}\n`);
          return null;
        });
        if (res === null) {
          failed += 1;
          return performance.now() - t0;
        }
        if (res.status !== 200) {
          failed += 1;
          if (process.env.BENCH_VERBOSE) process.stderr.write(`${res.status} ${await res.text().catch(() => '')}\n`);
        } else await res.arrayBuffer();
        return performance.now() - t0;
      }),
    ),
  );
  if (into === null) return; // the first round warms pools and JIT for both alike
  const took = Date.now() - started;
  into.roundTimes.push(took);
  into.sendTimes.push(...times);
  into.sends += times.length;
  into.busy += took;
  into.failed += failed;
}

/**
 * The contenders' rounds interleaved (A B A B …): on a shared machine whose load swings within a
 * minute, each meets the same mix. An account's rounds on one contender start at least 2 s apart.
 */
async function interleavedRounds(
  contenders: readonly { label: string; url: string }[],
  accounts: Account[],
): Promise<Rounds[]> {
  const tallies = contenders.map((): Tally => ({ roundTimes: [], sendTimes: [], failed: 0, sends: 0, busy: 0 }));
  const nextStart = contenders.map(() => 0);
  for (let r = 0; r < ROUNDS + 1; r++) {
    for (const [n, c] of contenders.entries()) {
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, nextStart[n] - Date.now())));
      nextStart[n] = Date.now() + 2_000;
      await round(c.url, accounts, r === 0 ? null : tallies[n]);
    }
  }
  return contenders.map((c, n) => {
    const t = tallies[n];
    t.roundTimes.sort((x, y) => x - y);
    t.sendTimes.sort((x, y) => x - y);
    return {
      label: c.label,
      sendsPerSecond: (t.sends / t.busy) * 1000,
      roundP50: percentile(t.roundTimes, 0.5),
      sendP50: percentile(t.sendTimes, 0.5),
      sendP99: percentile(t.sendTimes, 0.99),
      failed: t.failed,
    };
  });
}

const row = (m: Rounds) =>
  `  ${m.label.padEnd(46)} ${m.sendsPerSecond.toFixed(0).padStart(6)} sends/s   round p50 ${String(m.roundP50).padStart(5)} ms   send p50 ${m.sendP50.toFixed(0).padStart(4)} ms   p99 ${m.sendP99.toFixed(0).padStart(5)} ms   failed ${m.failed}`;

async function main(): Promise<void> {
  if (!process.env.DATABASE_URL)
    throw new Error(
      'This benchmark needs DATABASE_URL: the bare handler runs in its own process on the same PostgreSQL.',
    );
  const graph = await GraphStandIn.start(TOKEN);
  const db = await benchDatabase();
  const api = await startApiProcess(db.url, {
    CHATAPP_PROVIDER: 'whatsapp_cloud',
    WHATSAPP_APP_SECRET: 'bench-secret-0123456789',
    WHATSAPP_VERIFY_TOKEN: 'bench-verify',
    WHATSAPP_GRAPH_BASE_URL: graph.baseUrl,
    REPLY_GENERATOR: 'off',
    ALLOW_PRIVATE_TARGETS: '1',
  });
  const pool = new Pool({ connectionString: db.url, max: 4 });
  const accounts = await seed(api, graph, pool);
  const bare = await startBareProcess('bare-reserve-send.js', {
    DATABASE_URL: db.url,
    GRAPH_BASE_URL: graph.baseUrl,
    GRAPH_TOKEN: TOKEN,
  });
  graph.slowSends(LATENCY_MS);

  const [subject, base] = await interleavedRounds(
    [
      { label: 'voiceplane POST /chatapp/send-freeform', url: `${api.url}/api/user/chatapp/send-freeform` },
      { label: 'bare reserve/call/settle (own process, prepared)', url: `${bare.url}/send-freeform` },
    ],
    accounts,
  );
  process.stdout.write(
    `\nFreeform send with a ${LATENCY_MS} ms chat app (${ACCOUNTS} accounts × ${PER_ACCOUNT} sends at once, ${ROUNDS} rounds, PostgreSQL)\n`,
  );
  process.stdout.write(
    `${row(subject)}\n${row(base)}\n  ratio (voiceplane / bare): ${(subject.sendsPerSecond / base.sendsPerSecond).toFixed(2)}\n`,
  );
  // One record per run (its rounds are interleaved inside); `npm run bench --only chatapp-send-provider`.
  recordRound({
    path: 'chatapp-send-provider',
    product: subject.sendsPerSecond,
    twin: base.sendsPerSecond,
    p50: Math.round(subject.sendP50),
    p99: Math.round(subject.sendP99),
  });
  if (subject.failed > 0 || base.failed > 0)
    process.stdout.write('  WARNING: failed sends were counted; the figures are not comparable.\n');

  bare.stop();
  api.stop();
  await pool.end();
  await db.close();
  await graph.close();
}

runBench(main);
