/**
 * POST /api/user/chatapp/send-freeform with the sandbox chat app on real PostgreSQL, against a bare express + pg
 * handler doing the same transaction (token lookup, sender and window check, balance row lock and debit,
 * conversation update, message + chat-app message + ledger rows) on the same database, in the same run.
 * Sends are spread round-robin over many users, each with an open window, so no user nears the 5 sends/s quota.
 * A third baseline is like for like with the product: prepared statements, and the send reserved and
 * settled in two short transactions (the product never holds a transaction over the provider, sandbox
 * or not), lib/bare-reserve-send.ts with the sandbox in place of the HTTP call.
 * In this process (load generator, product, baselines measured in interleaved slices), then, with
 * DATABASE_URL, apps/api and the reserve + settle twin each in its own process, interleaved rounds
 * (BENCH_ROUNDS, 3): the figure `npm run bench` reports as `chatapp-send`;
 * `node --cpu-prof tools/dist/bench/chatapp-send.js` and `cpuprofile-summary.js <file> 40 packages/`
 * read the product's share of a profile.
 *   npx tsc -b && node tools/dist/bench/chatapp-send.js     (DATABASE_URL=… for real PostgreSQL)
 */
import autocannon from 'autocannon';
import { Pool } from 'pg';
import { benchDatabase, listen, Measurement, report, reportAgainst, runBench, settings } from './lib/harness';
import { bareSends } from './lib/bare-send';
import { Account, CUSTOMER, MESSAGE, seed, slice, USERS } from './lib/sandbox-send-load';
import { startComposedApi } from './lib/composed-api';
import { bareReserveSendApp } from './lib/bare-reserve-send';
import { startApiProcess, startBareProcess } from './lib/processes';
import { interleavedRounds, ownProcessesOnly } from './lib/rounds';

/**
 * Every contender in turn, `SLICES` times (A B C D A B C D …), each slice a share of the duration:
 * on a shared machine whose load swings within a minute, contenders measured one after the other
 * meet different loads; interleaved, each meets the same mix. Throughput is all requests over all
 * slices' time; latencies are the medians of the slices' percentiles.
 */
async function measureInterleaved(
  contenders: readonly { label: string; url: string }[],
  accounts: Account[],
): Promise<Measurement[]> {
  const slices = Number(process.env.BENCH_SLICES ?? 4);
  const seconds = Math.max(1, Math.round(settings.duration / slices));
  for (const c of contenders) await slice(c.url, accounts, 2); // warm-up: JIT and pools hot for all alike
  const results = contenders.map(() => [] as Awaited<ReturnType<typeof autocannon>>[]);
  for (let i = 0; i < slices; i++) {
    for (const [n, c] of contenders.entries()) results[n].push(await slice(c.url, accounts, seconds));
  }
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return contenders.map((c, n) => {
    const rs = results[n];
    return {
      label: c.label,
      rps: rs.reduce((sum, r) => sum + r.requests.total, 0) / (slices * seconds),
      p50: median(rs.map((r) => r.latency.p50)),
      p99: median(rs.map((r) => r.latency.p99)),
      non2xx: rs.reduce((sum, r) => sum + r.non2xx, 0),
      errors: rs.reduce((sum, r) => sum + r.errors, 0),
    };
  });
}

async function main(): Promise<void> {
  const db = await benchDatabase();
  if (!ownProcessesOnly) await inThisProcess(db);
  if (process.env.DATABASE_URL) await ownProcesses(db);
  await db.close();
}

/** A slice of sends as a Measurement. */
async function sliceMeasurement(label: string, url: string, accounts: Account[]): Promise<Measurement> {
  const r = await slice(url, accounts, settings.duration);
  return {
    label,
    rps: r.requests.total / settings.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
    requests: r.requests.total,
  };
}

/** apps/api against the prepared reserve + settle twin (sandbox in place of HTTP), each in its own process. */
async function ownProcesses(db: Awaited<ReturnType<typeof benchDatabase>>): Promise<void> {
  const api = await startApiProcess(db.url, { REPLY_GENERATOR: 'off' });
  const bare = await startBareProcess('bare-reserve-send.js', { DATABASE_URL: db.url });
  const seeding = new Pool({ connectionString: db.url, max: 4 });
  try {
    await fetch(`${api.url}/api/admin/users`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${api.adminToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Plan', email: `plan${Date.now()}@example.test` }),
    });
    const accounts = await seed(seeding);
    const product = `${api.url}/api/user/chatapp/send-freeform`;
    const twin = `${bare.url}/send-freeform`;
    await slice(product, accounts, 2); // warm-up: JIT and pools hot for both alike
    await slice(twin, accounts, 2);
    process.stdout.write(`\nPOST /api/user/chatapp/send-freeform (sandbox, ${USERS} users), each in its own process\n`);
    await interleavedRounds(
      'chatapp-send',
      () => sliceMeasurement('voiceplane (apps/api)', product, accounts),
      () => sliceMeasurement('bare reserve + settle, prepared (own process)', twin, accounts),
    );
  } finally {
    api.stop();
    bare.stop();
    await new Promise((r) => setTimeout(r, 500));
    await seeding.end();
  }
}

async function inThisProcess(db: Awaited<ReturnType<typeof benchDatabase>>): Promise<void> {
  const api = await startComposedApi(db);
  const pool = new Pool({ connectionString: db.url, max: process.env.DATABASE_URL ? 20 : 8 });
  // A first user through the admin API gives the seeded ones a real plan.
  await fetch(`${api.url}/api/admin/users`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${api.runtime.adminToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Plan', email: `plan${Date.now()}@example.test` }),
  });
  const accounts = await seed(pool);

  const baseline = await listen(bareSends(pool, false));
  const preparedBaseline = await listen(bareSends(pool, true));
  const reserveBaseline = await listen(bareReserveSendApp(pool, '', ''));

  const probe = (url: string) =>
    fetch(url, {
      method: 'POST',
      headers: { Authorization: `Bearer ${accounts[0].token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ sender_id: accounts[0].senderId, recipient_phone: CUSTOMER, message: MESSAGE }),
    }).then(async (r) => [
      r.status,
      Object.keys((await r.json()) as object)
        .sort()
        .join(','),
    ]);
  const [ours, theirs, prepared] = await Promise.all([
    probe(`${api.url}/api/user/chatapp/send-freeform`),
    probe(`${baseline.url}/send-freeform`),
    probe(`${preparedBaseline.url}/send-freeform`),
  ]);
  const reserving = await probe(`${reserveBaseline.url}/send-freeform`);
  for (const other of [theirs, prepared, reserving]) {
    if (JSON.stringify(ours) !== JSON.stringify(other))
      throw new Error(`voiceplane and a baseline disagree: ${JSON.stringify(ours)} vs ${JSON.stringify(other)}`);
  }

  const [subject, base, basePrepared, baseReserve] = await measureInterleaved(
    [
      { label: 'voiceplane POST /chatapp/send-freeform', url: `${api.url}/api/user/chatapp/send-freeform` },
      { label: 'bare express + pg (same transaction)', url: `${baseline.url}/send-freeform` },
      { label: 'the same, prepared statements', url: `${preparedBaseline.url}/send-freeform` },
      { label: 'prepared, reserve + settle (2 tx)', url: `${reserveBaseline.url}/send-freeform` },
    ],
    accounts,
  );
  report(`POST /api/user/chatapp/send-freeform (sandbox chat app, ${USERS} users round-robin)`, subject, base);
  reportAgainst(subject, basePrepared);
  reportAgainst(subject, baseReserve);

  await baseline.close();
  await preparedBaseline.close();
  await reserveBaseline.close();
  // Requests autocannon left in flight finish before the pools close.
  await new Promise((r) => setTimeout(r, 500));
  await pool.end();
  await api.close();
}

runBench(main);
