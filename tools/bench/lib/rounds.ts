/**
 * Interleaved rounds of a product and its twin, each in its own process, and the per-round record
 * `bench/all.ts` collects: with BENCH_RESULTS set, every round is appended to that file as one JSON
 * line. BENCH_ROUNDS (default 3) rounds; the order alternates (product, twin, twin, product, …), so
 * on a shared machine whose load swings both meet the same mix.
 */
import { appendFileSync } from 'node:fs';
import type { Measurement } from './harness';

export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

/** Run by `npm run bench`: only the own-process comparisons that feed its table. */
export const ownProcessesOnly = process.env.BENCH_RESULTS !== undefined;

export interface RoundRecord {
  readonly path: string;
  readonly product: number;
  readonly twin: number;
  readonly p50: number;
  readonly p99: number;
}

export function recordRound(record: RoundRecord): void {
  const file = process.env.BENCH_RESULTS;
  if (file) appendFileSync(file, `${JSON.stringify(record)}\n`);
}

/** `rounds` interleaved rounds; each round's pair is recorded under `path` and returned. */
export async function interleavedRounds(
  path: string,
  product: () => Promise<Measurement>,
  twin: () => Promise<Measurement>,
  rounds = ROUNDS,
): Promise<Array<{ product: Measurement; twin: Measurement }>> {
  const out: Array<{ product: Measurement; twin: Measurement }> = [];
  for (let i = 0; i < rounds; i++) {
    let p: Measurement;
    let t: Measurement;
    if (i % 2 === 0) {
      p = await product();
      t = await twin();
    } else {
      t = await twin();
      p = await product();
    }
    recordRound({ path, product: p.rps, twin: t.rps, p50: p.p50, p99: p.p99 });
    process.stdout.write(
      `  ${path} round ${i + 1}/${rounds}: product ${p.rps.toFixed(0)}/s (p50 ${p.p50} ms, p99 ${p.p99} ms, non-2xx ${p.non2xx}), twin ${t.rps.toFixed(0)}/s (non-2xx ${t.non2xx}), ratio ${(p.rps / t.rps).toFixed(2)}\n`,
    );
    if (p.non2xx > 0 || t.non2xx > 0 || p.errors > 0 || t.errors > 0)
      process.stdout.write('  WARNING: non-2xx answers or errors were counted; the round is not comparable.\n');
    out.push({ product: p, twin: t });
  }
  return out;
}

export const median = (values: number[]): number => {
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
