import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createScratchDatabase, type ScratchDatabase } from '@voiceplane/test-env/scratch-database';
import { runBench } from './lib/harness';

/**
 * What an idle server costs: the built api (`apps/api/dist/main.js`, as `npm start` runs it) in a
 * process of its own, with no request at all, on the embedded default (PGlite in a temporary
 * VOICEPLANE_DATA_DIR) and on PostgreSQL (a scratch database on DATABASE_URL's server, default
 * postgres://root@127.0.0.1:5432/test) — single-process, and, when AMQP_URL's broker answers, split
 * into the api and `apps/worker`. Once healthy and settled, the CPU the process spent
 * (`/proc/<pid>/stat`, user + system) over IDLE_SECONDS (default 60, so one safety poll falls in it) is printed as a percentage of
 * one core. Linux only.
 *
 *   node tools/dist/bench/idle-cost.js            # every mode that is reachable
 *   IDLE_MODES=embedded node tools/dist/bench/idle-cost.js
 */
const ROOT = resolve(__dirname, '..', '..', '..');
const API = join(ROOT, 'apps', 'api', 'dist', 'main.js');
const WORKER = join(ROOT, 'apps', 'worker', 'dist', 'main.js');
const SECONDS = Number(process.env.IDLE_SECONDS ?? 60);
/** Consecutive windows of IDLE_SECONDS after settling, each printed: the target holds in every one. */
const WINDOWS = Number(process.env.IDLE_WINDOWS ?? 1);
/**
 * After the health answer. The first minute is not idle: the once-a-minute sweeps run for the first
 * time (compiling their code) and V8 collects the start-up garbage — measured on PostgreSQL, a 30 s
 * window right after start read 1.2 %, the same server a minute later 0.05 %.
 */
const SETTLE_MS = Number(process.env.IDLE_SETTLE_MS ?? 70_000);
/** A first start on a fresh data directory migrates PGlite: minutes on a busy 2-core machine. */
const STARTUP_CEILING_MS = Number(process.env.IDLE_STARTUP_SECONDS ?? 300) * 1_000;
const PG_URL = process.env.DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
const AMQP = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
/** Clock ticks per second of /proc/<pid>/stat (USER_HZ): 100 on every Linux this runs on. */
const TICKS_PER_SECOND = 100;

interface Running {
  readonly label: string;
  readonly child: ChildProcess;
  readonly output: () => string;
}

function launch(label: string, script: string, env: NodeJS.ProcessEnv): Running {
  const child = spawn(process.execPath, [script], { env: { ...baseEnv(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  return { label, child, output: () => out };
}

/** The bench's own environment minus what selects a mode, so every mode is what its label says. */
function baseEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
  for (const name of ['DATABASE_URL', 'AMQP_URL', 'VOICEPLANE_DATA_DIR', 'MIGRATE_ON_START']) delete env[name];
  return env;
}

async function listening(api: Running): Promise<string> {
  const deadline = Date.now() + STARTUP_CEILING_MS;
  while (Date.now() < deadline) {
    if (api.child.exitCode !== null)
      throw new Error(`${api.label} exited with ${api.child.exitCode}:\n${api.output()}`);
    const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(api.output());
    if (m) {
      const health = await fetch(`${m[1]}/api/health`).catch(() => null);
      if (health?.status === 200) return m[1];
    }
    await sleep(100);
  }
  throw new Error(`${api.label} not healthy within ${STARTUP_CEILING_MS / 1_000} s:\n${api.output()}`);
}

function cpuTicks(pid: number): number {
  // The command name (field 2) may hold spaces; the fields after its closing parenthesis do not.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of the line)
}

async function measureIdle(processes: readonly Running[]): Promise<number[]> {
  const before = processes.map((p) => cpuTicks(p.child.pid!));
  const started = process.hrtime.bigint();
  await sleep(SECONDS * 1_000);
  const elapsedS = Number(process.hrtime.bigint() - started) / 1e9;
  return processes.map((p, i) => ((cpuTicks(p.child.pid!) - before[i]) / TICKS_PER_SECOND / elapsedS) * 100);
}

async function stopAll(processes: readonly Running[]): Promise<void> {
  await Promise.all(
    processes.map(
      (p) =>
        new Promise<void>((done) => {
          if (p.child.exitCode !== null) return done();
          const forced = setTimeout(() => p.child.kill('SIGKILL'), 30_000);
          p.child.once('exit', () => {
            clearTimeout(forced);
            done();
          });
          p.child.kill('SIGTERM');
        }),
    ),
  );
}

async function run(mode: string, start: () => Promise<Running[]>): Promise<void> {
  const processes = await start();
  try {
    for (const p of processes.filter((q) => q.label === 'api')) await listening(p);
    await sleep(SETTLE_MS);
    for (let w = 1; w <= WINDOWS; w++) {
      const shares = await measureIdle(processes);
      const parts = processes.map((p, i) => `${p.label} ${shares[i].toFixed(2)} %`).join(', ');
      const total = shares.reduce((a, b) => a + b, 0);
      process.stdout.write(
        `${mode.padEnd(34)} ${total.toFixed(2).padStart(6)} % of one core over ${SECONDS} s${WINDOWS > 1 ? ` (window ${w} of ${WINDOWS})` : ''}${processes.length > 1 ? `  (${parts})` : ''}\n`,
      );
    }
  } finally {
    await stopAll(processes);
  }
}

async function embedded(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'voiceplane-idle-'));
  try {
    await run('embedded PGlite', async () => [launch('api', API, { VOICEPLANE_DATA_DIR: dataDir })]);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function postgres(withBroker: boolean): Promise<void> {
  // A scratch database, migrated here, so the api's start finds the schema current. Two
  // connections: migrating holds one for its lock and runs the migrations on another.
  const db: ScratchDatabase = await createScratchDatabase({ serverUrl: PG_URL, poolSize: 2, prefix: 'vp_bench' });
  const env = {
    DATABASE_URL: db.url,
    ADMIN_TOKEN: randomBytes(24).toString('hex'),
    RUNTIME_TOKEN: randomBytes(24).toString('hex'),
  };
  try {
    if (!withBroker) {
      await run('PostgreSQL, single process', async () => [launch('api', API, env)]);
      return;
    }
    const isolated = {
      ...env,
      AMQP_URL: AMQP,
      AMQP_EXCHANGE: `vp_idle_${randomBytes(4).toString('hex')}`,
      AMQP_QUEUE_PREFIX: `vp_idle_${randomBytes(4).toString('hex')}`,
    };
    await run('PostgreSQL + RabbitMQ (api+worker)', async () => [
      launch('api', API, isolated),
      launch('worker', WORKER, isolated),
    ]);
  } finally {
    await db.close();
  }
}

function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((done) => {
    const socket = createConnection({ host: hostname, port: Number(port || 5672) });
    const finish = (ok: boolean) => {
      socket.destroy();
      done(ok);
    };
    socket.setTimeout(1_000, () => finish(false));
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
  });
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

runBench(async () => {
  const modes = (process.env.IDLE_MODES ?? 'embedded,postgres,rabbitmq').split(',');
  process.stdout.write(
    `Idle cost: CPU of a server with no request, ${SECONDS} s after ${SETTLE_MS / 1_000} s to settle\n`,
  );
  if (modes.includes('embedded')) await embedded();
  if (modes.includes('postgres')) await postgres(false);
  if (modes.includes('rabbitmq')) {
    if (await reachable(AMQP)) await postgres(true);
    else process.stdout.write(`PostgreSQL + RabbitMQ: skipped (${new URL(AMQP).host} does not answer)\n`);
  }
});
