/**
 * Contenders in processes of their own, as the product runs: apps/api from its built entry, and a
 * bare baseline script that prints its URL on stdout. The bench process then only drives the load.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { join } from 'node:path';

const REPOSITORY = join(__dirname, '..', '..', '..', '..');

export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * apps/api as it runs in production (single-process mode) on `databaseUrl`, with `env` added.
 * BENCH_API_NODE_OPTIONS, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`: node flags for the api process
 * alone (a profile under load; written when the process exits on SIGTERM).
 */
export async function startApiProcess(
  databaseUrl: string,
  env: NodeJS.ProcessEnv = {},
): Promise<{ url: string; adminToken: string; pid: number; stop(): void }> {
  const port = await freePort();
  const adminToken = `bench-admin-${randomUUID()}`;
  const nodeFlags = (process.env.BENCH_API_NODE_OPTIONS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeFlags, join(REPOSITORY, 'apps', 'api', 'dist', 'main.js')], {
    env: {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_TOKEN: adminToken,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error('the api process exited during start');
    if ((await fetch(`${url}/api/health`).catch(() => null))?.ok) break;
    if (i > 300) throw new Error('the api process did not answer its health check');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, adminToken, pid: child.pid!, stop: () => child.kill('SIGTERM') };
}

/** A compiled baseline script under tools/dist/bench/lib that prints its URL once listening. */
export async function startBareProcess(
  script: string,
  env: NodeJS.ProcessEnv,
): Promise<{ url: string; pid: number; stop(): void }> {
  const child = spawn(process.execPath, [join(__dirname, script)], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once('exit', () => reject(new Error(`${script} exited during start`)));
  });
  return { url, pid: child.pid!, stop: () => child.kill('SIGTERM') };
}
