import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import autocannon from 'autocannon';
import { createScratchDatabase, type ScratchDatabase } from '@voiceplane/test-env/scratch-database';

/**
 * Shared pieces of the benchmarks: a fresh migrated database (DATABASE_URL's server or embedded
 * PGlite), autocannon runs, and the side-by-side report with the bare baseline.
 */
export type BenchDatabase = ScratchDatabase;

/** The api and the baseline share one fresh database: DATABASE_URL's server, else embedded PGlite. */
export function benchDatabase(): Promise<BenchDatabase> {
  return createScratchDatabase({ serverUrl: process.env.DATABASE_URL, poolSize: 20, prefix: 'vp_bench' });
}

export async function listen(app: {
  listen(port: number, host: string): Server;
}): Promise<{ url: string; close(): Promise<void> }> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface Measurement {
  readonly label: string;
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly non2xx: number;
  readonly errors: number;
  /** Requests completed in the measured run (not the warm-up). */
  readonly requests?: number;
}

export const settings = {
  duration: Number(process.env.BENCH_SECONDS ?? 10),
  connections: Number(process.env.BENCH_CONNECTIONS ?? 10),
};

/** `measured` runs just before and just after the measured run (not the warm-up), e.g. to read CPU time. */
export async function measure(
  label: string,
  url: string,
  headers: Record<string, string> = {},
  method = 'GET',
  body?: string,
  measured?: { before(): void; after(): void },
): Promise<Measurement> {
  // A short warm-up so JIT and pools are hot for both contenders alike.
  await autocannon({ url, headers, method, body, connections: settings.connections, duration: 2 });
  measured?.before();
  const r = await autocannon({
    url,
    headers,
    method,
    body,
    connections: settings.connections,
    duration: settings.duration,
  });
  measured?.after();
  return {
    label,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
    requests: r.requests.total,
  };
}

export function report(title: string, subject: Measurement, baseline: Measurement): number {
  process.stdout.write(
    `\n${title}  (${settings.connections} connections, ${settings.duration} s, ${process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite'})\n`,
  );
  process.stdout.write(`${row(subject)}\n`);
  return reportAgainst(subject, baseline);
}

/** A further baseline under the same subject: its row and the subject's ratio to it. */
export function reportAgainst(subject: Measurement, baseline: Measurement): number {
  const ratio = subject.rps / baseline.rps;
  process.stdout.write(`${row(baseline)}\n  ratio (voiceplane / ${baseline.label}): ${ratio.toFixed(2)}\n`);
  if (subject.non2xx > 0 || baseline.non2xx > 0)
    process.stdout.write('  WARNING: non-2xx answers were counted; the figures are not comparable.\n');
  return ratio;
}

const row = (m: Measurement) =>
  `  ${m.label.padEnd(34)} ${m.rps.toFixed(0).padStart(8)} req/s   p50 ${String(m.p50).padStart(4)} ms   p99 ${String(m.p99).padStart(4)} ms   non-2xx ${m.non2xx}   errors ${m.errors}`;

/** Runs a benchmark script's main; any failure is printed and ends the process with exit code 1. */
export function runBench(main: () => Promise<void>): void {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
