/**
 * What auto-recharge costs every charge: BalanceService.charge as composed (the auto-recharge
 * follow-up reads the account's settings inside the charge's transaction) against the same
 * BalanceService without a follow-up, on the same database in the same run. Two accounts per
 * side: one that never set auto-recharge, one with it enabled and the balance above its threshold
 * (the common case: nothing to raise).
 *   npx tsc -b && node tools/dist/bench/charge-follow-up.js     (DATABASE_URL=… for real PostgreSQL)
 */
import { BalanceService, TOKENS } from '@voiceplane/application';
import { TypeormLedgerRepository } from '@voiceplane/adapter-typeorm';
import { benchDatabase, runBench } from './lib/harness';
import { benchUser, startComposedApi } from './lib/composed-api';

const CHARGES = Number(process.env.BENCH_CHARGES ?? 2_000);
const CONCURRENCY = Number(process.env.BENCH_CONNECTIONS ?? 8);

async function run(label: string | null, service: BalanceService, userId: number, charges = CHARGES): Promise<number> {
  let next = 0;
  const latencies: number[] = [];
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < charges) {
        next += 1;
        const t0 = process.hrtime.bigint();
        const r = await service.charge({ userId, price: 0.0001, description: 'bench', reference: null });
        if (!r.ok) throw new Error(`charge refused: ${JSON.stringify(r.error)}`);
        latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  latencies.sort((a, b) => a - b);
  const perSecond = charges / seconds;
  if (label)
    console.log(
      `${label.padEnd(80)} ${perSecond.toFixed(0).padStart(6)} charges/s  p50 ${latencies[Math.floor(latencies.length / 2)].toFixed(2)} ms  p99 ${latencies[Math.floor(latencies.length * 0.99)].toFixed(2)} ms`,
    );
  return perSecond;
}

async function main(): Promise<void> {
  const db = await benchDatabase();
  const api = await startComposedApi(db);
  const composed = api.runtime.container.get(TOKENS.BalanceService);
  const bare = new BalanceService(new TypeormLedgerRepository(api.runtime.database));
  const auth = async () => {
    const user = await benchUser(api.url, api.runtime.adminToken);
    return { id: user.id, headers: { Authorization: `Bearer ${user.token}`, 'Content-Type': 'application/json' } };
  };
  const plain = await auth();
  const enabled = await auth();
  const put = await fetch(`${api.url}/api/user/billing/auto-recharge`, {
    method: 'PUT',
    headers: enabled.headers,
    body: JSON.stringify({ enabled: true, threshold: 5 }),
  });
  if (put.status !== 200) throw new Error(`enabling auto-recharge failed: ${put.status}`);

  console.log(
    `${CHARGES} charges per line, ${CONCURRENCY} at once, ${process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite'}`,
  );
  // Warm both paths (pool connections, plans, JIT) before anything is measured.
  for (const service of [bare, composed]) await run(null, service, plain.id, 500);
  const ratios: number[] = [];
  for (const [name, user] of [
    ['no auto-recharge', plain],
    ['auto-recharge on, balance above threshold', enabled],
  ] as const) {
    const base = await run(`bare BalanceService (${name})`, bare, user.id);
    const subject = await run(`composed BalanceService + follow-up (${name})`, composed, user.id);
    ratios.push(subject / base);
  }
  console.log(`ratio composed / bare: ${ratios.map((r) => r.toFixed(2)).join(', ')}`);
  await api.close();
  await db.close();
}

runBench(main);
