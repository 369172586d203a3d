/**
 * `npm run bench`: every benchmark with a twin, each contender in its own process, rounds
 * interleaved, and one Markdown table of the results.
 *   npx tsc -b && DATABASE_URL=… AMQP_URL=… node tools/dist/bench/all.js [--only a,b] [--runs N] [--write FILE]
 * Each path's script runs in a child process with BENCH_RESULTS (a file it appends one JSON line to per
 * round) and BENCH_ROUNDS; the ratio is the median of the per-round ratios, product/s and twin/s the
 * medians of the rounds, p50/p99 the product's medians. The own-process comparisons need PostgreSQL
 * (DATABASE_URL); `webhook-delivery-rabbitmq` also needs AMQP_URL.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { median, type RoundRecord } from './lib/rounds';

interface Path {
  readonly name: string;
  readonly script: string;
  /** Slow or not a product/twin pair: only with --only. */
  readonly optIn?: boolean;
  readonly needs?: readonly string[];
}

const PATHS: readonly Path[] = [
  { name: 'user-me', script: 'user-me.js' },
  { name: 'chatapp-send', script: 'chatapp-send.js' },
  { name: 'automation-hook', script: 'automation-lookup.js' },
  { name: 'number-search', script: 'number-search.js' },
  { name: 'webhook-delivery-rabbitmq', script: 'webhook-delivery.js', needs: ['AMQP_URL'] },
  { name: 'chatapp-send-provider', script: 'chatapp-send-provider.js', optIn: true },
];

function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? undefined : process.argv[i + 1];
}

function main(): number {
  if (!process.env.DATABASE_URL) {
    process.stderr.write('npm run bench needs DATABASE_URL (PostgreSQL): each contender runs in its own process.\n');
    return 2;
  }
  const only = option('only')?.split(',').filter(Boolean);
  const runs = Number(option('runs') ?? 3);
  const write = option('write');
  const unknown = (only ?? []).filter((n) => !PATHS.some((p) => p.name === n));
  if (unknown.length > 0) {
    process.stderr.write(`unknown path(s): ${unknown.join(', ')}; known: ${PATHS.map((p) => p.name).join(', ')}\n`);
    return 2;
  }
  const chosen = PATHS.filter((p) => (only ? only.includes(p.name) : !p.optIn));
  const rows: string[] = [];
  const before = loadavg();
  for (const path of chosen) {
    const missing = (path.needs ?? []).filter((v) => !process.env[v]);
    if (missing.length > 0) {
      rows.push(`| \`${path.name}\` | — | — | not run: needs ${missing.join(', ')} | — | — | 0 |`);
      continue;
    }
    const results = join(tmpdir(), `vp-bench-${process.pid}-${path.name}.jsonl`);
    rmSync(results, { force: true });
    process.stdout.write(`\n=== ${path.name} (${runs} runs, load average ${loadavg()[0].toFixed(1)}) ===\n`);
    const child = spawnSync(process.execPath, [join(__dirname, path.script)], {
      stdio: 'inherit',
      env: { ...process.env, BENCH_RESULTS: results, BENCH_ROUNDS: String(runs) },
    });
    const records: RoundRecord[] = existsSync(results)
      ? readFileSync(results, 'utf8')
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as RoundRecord)
          .filter((r) => r.path === path.name)
      : [];
    rmSync(results, { force: true });
    if (records.length === 0) {
      rows.push(`| \`${path.name}\` | — | — | failed (exit ${child.status}) | — | — | 0 |`);
      continue;
    }
    const fmt = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '—');
    rows.push(
      `| \`${path.name}\` | ${fmt(median(records.map((r) => r.product)))} | ${fmt(median(records.map((r) => r.twin)))} | ` +
        `${median(records.map((r) => r.product / r.twin)).toFixed(2)} | ${fmt(median(records.map((r) => r.p50)))} | ` +
        `${fmt(median(records.map((r) => r.p99)))} | ${records.length} |`,
    );
  }
  const after = loadavg();
  const table = [
    '| path | product/s | twin/s | ratio | p50 ms | p99 ms | runs |',
    '|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
  const note = `Load average (1 min) ${before[0].toFixed(1)} at the start, ${after[0].toFixed(1)} at the end.`;
  process.stdout.write(`\n${table}\n\n${note}\n`);
  if (write) writeFileSync(write, `${table}\n\n${note}\n`);
  return rows.some((r) => r.includes('failed')) ? 1 : 0;
}

process.exitCode = main();
