#!/usr/bin/env node
// The README's two commands. Needs only Node >= 20.19 and npm: a pinned pnpm is fetched through
// npx on first use, dependencies are installed from the lockfile, then the work is done.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const PNPM = 'pnpm@10.34.8';

function run(cmd, args, extraEnv = {}, options = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...extraEnv }, ...options });
  if (r.error && r.error.code !== 'ETIMEDOUT') throw r.error;
  return r.status ?? 1;
}
function must(cmd, args, extraEnv) {
  const code = run(cmd, args, extraEnv);
  if (code !== 0) process.exit(code);
}
const pnpm = (...args) => must('npx', ['--yes', PNPM, ...args]);
const bin = (name) => join(root, 'node_modules', '.bin', name);

function install() {
  pnpm('install', '--frozen-lockfile', '--prefer-offline', '--reporter=silent');
}
function build() {
  must(bin('tsc'), ['-b', 'tsconfig.json']);
  // The web console the api serves at /app; skipped when its sources have not changed.
  must(process.execPath, [join(root, 'apps', 'console', 'build.mjs')]);
}

const [command, ...rest] = process.argv.slice(2);
switch (command) {
  case 'start':
    install();
    build();
    // No --enable-source-maps: it turns the api's start-up code cache off; the api reads a module's
    // map only when a stack is printed (apps/api/src/lazy-source-maps.ts), so errors still show
    // TypeScript positions.
    must(process.execPath, ['apps/api/dist/main.js', ...rest]);
    break;
  case 'test': {
    install();
    build();
    must(bin('tsc'), ['-p', 'tsconfig.tests.json']);
    must(bin('tsc'), ['-p', 'apps/console/tsconfig.json']);
    must(process.execPath, ['tools/dist/check-boundaries.js']);
    // Formatting and the lint rules of biome.json; `npm run format` rewrites what the first complains about.
    must(bin('biome'), ['ci', '--reporter=summary', '.']);
    const summary = join(root, '.jest-results', 'summary.txt');
    rmSync(summary, { force: true });
    // The last guard against a hang: every test and hook has a timeout and the open-handles reporter
    // fails a run that cannot exit, so only something outside them (a stuck global setup) gets here.
    const ceilingMinutes = Number(process.env.TEST_RUN_CEILING_MINUTES ?? 30);
    const started = Date.now();
    // PGlite loads its WASM through a dynamic import, which Jest's VM allows only with this flag
    // (workers inherit it). Jest's default on two cores is one worker, which it runs in band: every
    // file in one process on one core, whose heap kept each file's module registry to the end and
    // passed Node's 4 GB ceiling (measured: out of heap after 514 s). At least two workers use both
    // cores, and a worker whose heap is past the idle limit after a file is replaced by a fresh one,
    // so no process grows with the suite.
    const workers = rest.some((a) => a.startsWith('--maxWorkers') || a === '-i' || a === '--runInBand')
      ? []
      : [`--maxWorkers=${Math.max(2, availableParallelism() - 1)}`];
    const code = run(
      process.execPath,
      [
        '--max-old-space-size=4096',
        '--experimental-vm-modules',
        '--disable-warning=ExperimentalWarning',
        join(root, 'node_modules', 'jest', 'bin', 'jest.js'),
        '--ci',
        ...workers,
        '--workerIdleMemoryLimit=1536MB',
        ...rest,
      ],
      {},
      {
        timeout: ceilingMinutes * 60_000,
        killSignal: 'SIGKILL',
      },
    );
    if (Date.now() - started >= ceilingMinutes * 60_000) {
      process.stderr.write(
        `\nJest was still running after ${ceilingMinutes} minutes (TEST_RUN_CEILING_MINUTES) and was killed: something hangs.\n`,
      );
    }
    const line = existsSync(summary) ? readFileSync(summary, 'utf8').trim() : '0 passed, 1 failed';
    process.stdout.write(`\n${line}\n`);
    process.exit(code);
    break;
  }
  case 'voice-agent':
    install();
    build();
    // `start` registers with LiveKit for production; pass `dev` for development logging.
    must(process.execPath, [
      '--enable-source-maps',
      'apps/voice-agent/dist/main.js',
      ...(rest.length > 0 ? rest : ['start']),
    ]);
    break;
  case 'bench':
    // Every benchmark with a twin, each contender in its own process: one Markdown table (tools/bench/all.ts).
    install();
    build();
    must(process.execPath, ['tools/dist/bench/all.js', ...rest]);
    break;
  case 'lint':
    must(bin('biome'), ['ci', '.']);
    break;
  case 'format':
    must(bin('biome'), ['format', '--write', '.']);
    break;
  case 'clean':
    for (const d of ['node_modules', 'dist']) if (existsSync(join(root, d))) rmSync(join(root, d), { recursive: true });
    break;
  default:
    console.error('usage: node scripts/run.mjs start|test|bench|lint|format|voice-agent|clean');
    process.exit(2);
}
