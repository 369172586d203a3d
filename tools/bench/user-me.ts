/**
 * GET /api/user/me with API-key auth against bare express + pg handlers doing only the operation's
 * own reads (token lookup, user read; not the product's rate-limit write) on the same database, in
 * the same run:
 *  - in this process: the composed api and a bare handler without prepared statements;
 *  - with DATABASE_URL, each in its own process as the product runs: apps/api from its built entry
 *    and the bare handler with named prepared statements (lib/bare-me.ts) — the baseline the
 *    per-request target is measured against. Rounds alternate between the two (BENCH_ROUNDS, 3),
 *    and each reports the CPU time each server process used per request (/proc/<pid>/stat): on a
 *    shared machine the steadier figure.
 *   npx tsc -b && DATABASE_URL=… node tools/dist/bench/user-me.js
 */
import { Pool } from 'pg';
import { benchDatabase, listen, measure, type Measurement, report, runBench } from './lib/harness';
import { cpuMicros } from './lib/cpu-time';
import { benchUser, startComposedApi } from './lib/composed-api';
import { bareMeApp } from './lib/bare-me';
import { startApiProcess, startBareProcess } from './lib/processes';
import { ownProcessesOnly, recordRound } from './lib/rounds';

async function main(): Promise<void> {
  const db = await benchDatabase();
  if (!ownProcessesOnly) await inThisProcess(db);
  if (process.env.DATABASE_URL) await ownProcesses(db);
  await db.close();
}

async function inThisProcess(db: Awaited<ReturnType<typeof benchDatabase>>): Promise<void> {
  const api = await startComposedApi(db);
  const user = await benchUser(api.url, api.runtime.adminToken);
  const headers = { Authorization: `Bearer ${user.token}` };

  const pool = new Pool({ connectionString: db.url, max: process.env.DATABASE_URL ? 20 : 8 });
  const baseline = await listen(bareMeApp(pool, false));

  const subject = await measure('voiceplane GET /api/user/me', `${api.url}/api/user/me`, headers);
  const base = await measure('bare express + pg (own reads only)', `${baseline.url}/me`, headers);
  report('GET /api/user/me, in this process', subject, base);

  await baseline.close();
  // Requests autocannon left in flight finish before the pools close.
  await new Promise((r) => setTimeout(r, 500));
  await api.close();
  await pool.end();
}

async function ownProcesses(db: Awaited<ReturnType<typeof benchDatabase>>): Promise<void> {
  {
    const apiProcess = await startApiProcess(db.url);
    const bare = await startBareProcess('bare-me.js', { DATABASE_URL: db.url });
    try {
      const own = await benchUser(apiProcess.url, apiProcess.adminToken);
      const ownHeaders = { Authorization: `Bearer ${own.token}` };
      // Interleaved rounds (product, bare, bare, product, …), so both meet the same load on a shared
      // machine; each round also reads the CPU time each server process used per request.
      const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
      const ratios: number[] = [];
      const cpu = { product: [] as number[], bare: [] as number[] };
      for (let i = 0; i < rounds; i++) {
        const runProduct = () =>
          measureCpu(apiProcess.pid, 'voiceplane (apps/api, own process)', `${apiProcess.url}/api/user/me`, ownHeaders);
        const runBare = () => measureCpu(bare.pid, 'bare, prepared (own process)', `${bare.url}/me`, ownHeaders);
        let product, prepared;
        if (i % 2 === 0) {
          product = await runProduct();
          prepared = await runBare();
        } else {
          prepared = await runBare();
          product = await runProduct();
        }
        ratios.push(
          report(`GET /api/user/me, each in its own process (round ${i + 1} of ${rounds})`, product.m, prepared.m),
        );
        recordRound({
          path: 'user-me',
          product: product.m.rps,
          twin: prepared.m.rps,
          p50: product.m.p50,
          p99: product.m.p99,
        });
        cpu.product.push(product.perRequest);
        cpu.bare.push(prepared.perRequest);
        process.stdout.write(
          `  CPU per request: voiceplane ${product.perRequest.toFixed(0)} µs, bare ${prepared.perRequest.toFixed(0)} µs\n`,
        );
      }
      process.stdout.write(
        `\nOwn processes, ${rounds} rounds: ratio ${ratios.map((r) => r.toFixed(2)).join(', ')} (median ${median(ratios).toFixed(2)}); ` +
          `CPU per request, median: voiceplane ${median(cpu.product).toFixed(0)} µs, bare ${median(cpu.bare).toFixed(0)} µs\n`,
      );
    } finally {
      apiProcess.stop();
      bare.stop();
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

/** A measurement and the CPU time the server process `pid` used per request during it (NaN without /proc). */
async function measureCpu(
  pid: number,
  label: string,
  url: string,
  headers: Record<string, string>,
): Promise<{ m: Measurement; perRequest: number }> {
  let before: number | null = null;
  let after: number | null = null;
  const m = await measure(label, url, headers, 'GET', undefined, {
    before: () => void (before = cpuMicros(pid)),
    after: () => void (after = cpuMicros(pid)),
  });
  return { m, perRequest: before === null || after === null ? NaN : (after - before) / (m.requests ?? NaN) };
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

runBench(main);
