/**
 * Where a sandbox freeform send's time goes, each contender in its own process as the product runs:
 * apps/api (sandbox chat app) against the prepared one-transaction bare handler (lib/bare-send.ts)
 * and the prepared reserve + settle one (lib/bare-reserve-send.ts), on one fresh database, slices
 * interleaved (A B C A B C …). Per contender and send:
 *  - sends/s, and the process's CPU (utime + stime from /proc/<pid>/stat over its slices);
 *  - the CPU of the database backends (every backend of the bench database, read the same way; the
 *    contenders not under load are idle meanwhile);
 *  - statements, the time they waited for their answers, and pool checkouts and their waits, counted
 *    inside the process by lib/statement-census.ts (preloaded with NODE_OPTIONS);
 *  - what its backends were doing, sampled from pg_stat_activity every 10 ms: running, idle inside a
 *    transaction (waiting for the next statement from the process), waiting for a lock, or idle.
 *   npx tsc -b && DATABASE_URL=… node tools/dist/bench/chatapp-send-census.js
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Pool } from 'pg';
import { benchDatabase, runBench, settings } from './lib/harness';
import { startApiProcess, startBareProcess } from './lib/processes';
import { Account, CUSTOMER, MESSAGE, seed, slice, USERS } from './lib/sandbox-send-load';

const TICK_MS = 1000 / 100; // USER_HZ

interface Census {
  statements: number;
  statementMs: number;
  checkouts: number;
  checkoutMs: number;
  byText: Record<string, number>;
}
interface Contender {
  readonly label: string;
  readonly url: string;
  readonly pid: number;
  readonly censusFile: string;
}
interface Tally {
  requests: number;
  non2xx: number;
  seconds: number;
  cpuMs: number;
  dbCpuMs: number;
  census: Census;
  states: Record<string, number>;
}

function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS; // utime, stime (fields 14, 15)
  } catch {
    return 0; // a backend that ended meanwhile
  }
}

async function readCensus(c: Contender): Promise<Census> {
  rmSync(c.censusFile, { force: true });
  process.kill(c.pid, 'SIGUSR2');
  for (let i = 0; i < 50; i++) {
    await new Promise((r) => setTimeout(r, 20));
    try {
      return JSON.parse(readFileSync(c.censusFile, 'utf8')) as Census;
    } catch {
      /* not written yet */
    }
  }
  throw new Error(`${c.label} wrote no census`);
}

const emptyCensus = (): Census => ({ statements: 0, statementMs: 0, checkouts: 0, checkoutMs: 0, byText: {} });

function addDifference(into: Census, before: Census, after: Census): void {
  into.statements += after.statements - before.statements;
  into.statementMs += after.statementMs - before.statementMs;
  into.checkouts += after.checkouts - before.checkouts;
  into.checkoutMs += after.checkoutMs - before.checkoutMs;
  for (const [text, n] of Object.entries(after.byText))
    into.byText[text] = (into.byText[text] ?? 0) + n - (before.byText[text] ?? 0);
}

async function backendPids(monitor: Pool, database: string): Promise<number[]> {
  const rows = await monitor.query<{ pid: number }>(
    `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`,
    [database],
  );
  return rows.rows.map((r) => r.pid);
}

/** pg_stat_activity every 10 ms while `running`: the backends' states, counted. */
async function sampleStates(
  monitor: Pool,
  database: string,
  running: () => boolean,
  into: Record<string, number>,
): Promise<void> {
  while (running()) {
    const rows = await monitor.query<{ state: string; wait: string | null }>(
      `SELECT state, wait_event_type || ':' || wait_event AS wait FROM pg_stat_activity
        WHERE datname = $1 AND pid <> pg_backend_pid() AND backend_type = 'client backend' AND query NOT LIKE 'LISTEN%'`,
      [database],
    );
    for (const r of rows.rows) {
      const key = r.state === 'active' && r.wait ? `active, waiting ${r.wait}` : r.state;
      into[key] = (into[key] ?? 0) + 1;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function main(): Promise<void> {
  if (!process.env.DATABASE_URL)
    throw new Error('This benchmark needs DATABASE_URL: each contender runs in its own process on PostgreSQL.');
  const db = await benchDatabase();
  const database = new URL(db.url).pathname.slice(1);
  const censusPath = join(__dirname, 'lib', 'statement-census.js');
  const withCensus = (name: string) => ({
    NODE_OPTIONS: `-r ${censusPath}`,
    STATEMENT_CENSUS_FILE: `/tmp/vp-census-${process.pid}-${name}.json`,
  });
  const api = await startApiProcess(db.url, { REPLY_GENERATOR: 'off', ...withCensus('api') });
  const bare = await startBareProcess('bare-send.js', { DATABASE_URL: db.url, ...withCensus('bare') });
  const reserve = await startBareProcess('bare-reserve-send.js', { DATABASE_URL: db.url, ...withCensus('reserve') });
  const seeding = new Pool({ connectionString: db.url, max: 4 });
  await fetch(`${api.url}/api/admin/users`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${api.adminToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Plan', email: `plan${Date.now()}@example.test` }),
  });
  const accounts: Account[] = await seed(seeding);
  await seeding.end();
  const monitor = new Pool({ connectionString: db.url, max: 1 });

  const contenders: Contender[] = [
    {
      label: 'voiceplane (apps/api)',
      url: `${api.url}/api/user/chatapp/send-freeform`,
      pid: api.pid,
      censusFile: withCensus('api').STATEMENT_CENSUS_FILE,
    },
    {
      label: 'bare, prepared, one tx',
      url: `${bare.url}/send-freeform`,
      pid: bare.pid,
      censusFile: withCensus('bare').STATEMENT_CENSUS_FILE,
    },
    {
      label: 'bare, prepared, reserve + settle',
      url: `${reserve.url}/send-freeform`,
      pid: reserve.pid,
      censusFile: withCensus('reserve').STATEMENT_CENSUS_FILE,
    },
  ];
  try {
    for (const c of contenders) {
      const probe = await fetch(c.url, {
        method: 'POST',
        headers: { Authorization: `Bearer ${accounts[0].token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ sender_id: accounts[0].senderId, recipient_phone: CUSTOMER, message: MESSAGE }),
      });
      if (probe.status !== 200) throw new Error(`${c.label} answered ${probe.status}: ${await probe.text()}`);
    }
    for (const c of contenders) await slice(c.url, accounts, 2);
    const slices = Number(process.env.BENCH_SLICES ?? 4);
    const seconds = Math.max(1, Math.round(settings.duration / slices));
    const tallies = contenders.map(
      (): Tally => ({ requests: 0, non2xx: 0, seconds: 0, cpuMs: 0, dbCpuMs: 0, census: emptyCensus(), states: {} }),
    );
    for (let i = 0; i < slices; i++) {
      for (const [n, c] of contenders.entries()) {
        const t = tallies[n];
        const before = await readCensus(c);
        const pids = await backendPids(monitor, database);
        const dbBefore = pids.map(cpuMs);
        const cpuBefore = cpuMs(c.pid);
        let running = true;
        const sampling = sampleStates(monitor, database, () => running, t.states);
        const r = await slice(c.url, accounts, seconds);
        running = false;
        await sampling;
        t.cpuMs += cpuMs(c.pid) - cpuBefore;
        // Backends that started during the slice (a pool replacing idle connections) count whole.
        const started = (await backendPids(monitor, database)).filter((pid) => !pids.includes(pid));
        t.dbCpuMs +=
          pids.map(cpuMs).reduce((sum, after, k) => sum + Math.max(0, after - dbBefore[k]), 0) +
          started.map(cpuMs).reduce((a, b) => a + b, 0);
        addDifference(t.census, before, await readCensus(c));
        t.requests += r.requests.total;
        t.non2xx += r.non2xx;
        t.seconds += seconds;
      }
    }
    const sends = (t: Tally) => Math.max(1, t.requests);
    process.stdout.write(
      `\nSandbox freeform send, each contender in its own process (${USERS} users round-robin, ${settings.connections} connections, ${slices} × ${seconds} s each, PostgreSQL)\n`,
    );
    for (const [n, c] of contenders.entries()) {
      const t = tallies[n];
      const per = (x: number) => (x / sends(t)).toFixed(2);
      const samples = Object.values(t.states).reduce((s, x) => s + x, 0) || 1;
      const states = Object.entries(t.states)
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => `${k} ${((v / samples) * 100).toFixed(0)} %`)
        .join(', ');
      process.stdout.write(
        `  ${c.label.padEnd(34)} ${(t.requests / t.seconds).toFixed(0).padStart(6)} sends/s  non-2xx ${t.non2xx}\n` +
          `    process CPU ${((t.cpuMs * 1000) / sends(t)).toFixed(0)} µs/send, database backends ${((t.dbCpuMs * 1000) / sends(t)).toFixed(0)} µs/send\n` +
          `    statements ${per(t.census.statements)}/send, answered after ${per(t.census.statementMs)} ms/send in total; pool checkouts ${per(t.census.checkouts)}/send, waited ${per(t.census.checkoutMs)} ms/send\n` +
          `    backends: ${states}\n`,
      );
      if (process.env.BENCH_VERBOSE) {
        for (const [text, count] of Object.entries(t.census.byText)
          .filter(([, k]) => k > 0)
          .sort((a, b) => b[1] - a[1])) {
          process.stdout.write(`      ${(count / sends(t)).toFixed(2)}  ${text}\n`);
        }
      }
    }
    const rate = (n: number) => tallies[n].requests / tallies[n].seconds;
    process.stdout.write(
      `  ratio voiceplane / one tx: ${(rate(0) / rate(1)).toFixed(2)}, voiceplane / reserve + settle: ${(rate(0) / rate(2)).toFixed(2)}\n`,
    );
  } finally {
    api.stop();
    bare.stop();
    reserve.stop();
    await new Promise((r) => setTimeout(r, 500));
    await monitor.end();
    await db.close();
  }
}

runBench(main);
