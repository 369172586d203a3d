import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runBench } from './lib/harness';

/**
 * Restart time of the embedded default (no DATABASE_URL, no AMQP_URL): the built api is started
 * once on a fresh data directory (cold: PGlite initdb, migrations, demo seed), stopped, then
 * started RESTARTS more times on the same directory. Each start is timed from spawn to the first
 * 200 from /api/health. Builds nothing: run `tsc -b` first.
 *
 *   node tools/dist/bench/restart-time.js            # RESTARTS=5 by default
 *   RESTARTS=9 STARTUP_TIMING=1 node tools/dist/bench/restart-time.js   # plus the api's stage timings
 *   API_NODE_ARGS=--enable-source-maps node tools/dist/bench/restart-time.js   # node's flags as `npm start` gives them
 *   API_MAINS=apps/api/dist/main.js,/tmp/old/main.js node tools/dist/bench/restart-time.js
 *
 * API_MAINS compares built entries: each gets its own data directory (and compile cache), and every
 * round restarts each once, in turn, so that a neighbour's load falls on all of them alike.
 */
const ROOT = resolve(__dirname, '../../..');
const MAINS = (process.env.API_MAINS ?? 'apps/api/dist/main.js').split(',').map((m) => resolve(ROOT, m.trim()));
const NODE_ARGS = (process.env.API_NODE_ARGS ?? '').split(' ').filter(Boolean);
const RESTARTS = Number(process.env.RESTARTS ?? 5);
const TIMEOUT_MS = Number(process.env.START_TIMEOUT_MS ?? 300_000);

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => done(port));
    });
  });
}

async function healthy(url: string): Promise<boolean> {
  try {
    const r = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    return r.status === 200;
  } catch {
    return false;
  }
}

interface Started {
  readonly child: ChildProcess;
  readonly ms: number;
  readonly cpuMs: number | null;
  readonly timing: string[];
}

/** The child's CPU time so far (Linux /proc; null elsewhere): on a shared, loaded machine wall time mostly measures the neighbours. */
function cpuMsOf(pid: number | undefined): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of stat, in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

async function start(main: string, dataDir: string): Promise<Started> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    VOICEPLANE_DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
  };
  delete env.DATABASE_URL;
  delete env.AMQP_URL;
  if (process.env.STARTUP_TIMING === '1') env.VOICEPLANE_STARTUP_TIMING = '1';
  const t0 = process.hrtime.bigint();
  const child = spawn(process.execPath, [...NODE_ARGS, main], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const timing: string[] = [];
  let output = '';
  const collect = (chunk: Buffer) => {
    const text = chunk.toString();
    output += text;
    for (const line of text.split('\n')) if (line.includes('startup-timing')) timing.push(line.trim());
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  const url = `http://127.0.0.1:${port}/api/health`;
  for (;;) {
    if (exited) throw new Error(`the api exited before answering:\n${output}`);
    if (Number(process.hrtime.bigint() - t0) / 1e6 > TIMEOUT_MS) {
      await stop(child);
      throw new Error(`no healthy answer in ${TIMEOUT_MS} ms:\n${output}`);
    }
    if (await healthy(url)) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  return { child, ms, cpuMs: cpuMsOf(child.pid), timing };
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null) return done();
    child.once('exit', () => done());
    child.kill('SIGTERM');
  });
}

const cpu = (ms: number | null) => (ms === null ? '' : `  (api process cpu ${ms.toFixed(0)} ms)`);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

runBench(async () => {
  const variants = MAINS.map((main) => ({
    main,
    dataDir: mkdtempSync(join(tmpdir(), 'vp-restart-')),
    warm: [] as number[],
    warmCpu: [] as number[],
  }));
  const label = (main: string) => (variants.length > 1 ? `[${main}] ` : '');
  try {
    for (const v of variants) {
      const cold = await start(v.main, v.dataDir);
      await stop(cold.child);
      process.stdout.write(
        `${label(v.main)}cold start (fresh data directory): ${cold.ms.toFixed(0)} ms${cpu(cold.cpuMs)}\n`,
      );
      for (const line of cold.timing) process.stdout.write(`    ${line}\n`);
    }
    for (let i = 1; i <= RESTARTS; i++) {
      // Alternating order: neither variant always runs right after the other's exit.
      for (const v of i % 2 ? variants : [...variants].reverse()) {
        const run = await start(v.main, v.dataDir);
        await stop(run.child);
        v.warm.push(run.ms);
        if (run.cpuMs !== null) v.warmCpu.push(run.cpuMs);
        process.stdout.write(`${label(v.main)}warm restart ${i}: ${run.ms.toFixed(0)} ms${cpu(run.cpuMs)}\n`);
        for (const line of run.timing) process.stdout.write(`    ${line}\n`);
      }
    }
    for (const v of variants) {
      process.stdout.write(
        `${label(v.main)}warm restart median of ${RESTARTS}: ${median(v.warm).toFixed(0)} ms${v.warmCpu.length ? cpu(median(v.warmCpu)) : ''}\n`,
      );
    }
  } finally {
    for (const v of variants) rmSync(v.dataDir, { recursive: true, force: true });
  }
});
