import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * The `npm start` process itself (built output, as `npm start` runs it, with the arguments after
 * `npm start --`): embedded PostgreSQL, the demo key printed once and usable, data kept across a
 * restart, the way back to a key, a clean exit on SIGTERM.
 */
const MAIN = resolve(__dirname, '..', 'dist', 'main.js');

interface Started {
  readonly child: ChildProcess;
  readonly base: string;
  readonly output: () => string;
}

function spawnMain(dataDir: string, args: string[]): ChildProcess {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    VOICEPLANE_DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
  };
  delete env.DATABASE_URL;
  delete env.AMQP_URL;
  delete env.ADMIN_TOKEN;
  delete env.RUNTIME_TOKEN;
  return spawn(process.execPath, [MAIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
}

function start(dataDir: string, args: string[] = []): Promise<Started> {
  const child = spawnMain(dataDir, args);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  return new Promise((resolvePromise, reject) => {
    // Only bounds how long a failure takes to show: a first start migrates a fresh database, which on a
    // machine busy with other work has taken over a minute.
    const timer = setTimeout(() => reject(new Error(`no banner within 150 s:\n${out}`)), 150_000);
    child.stdout!.on('data', () => {
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolvePromise({ child, base: m[1], output: () => out });
      }
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code} before listening:\n${out}`)));
  });
}

function stop(s: Started): Promise<number | null> {
  return new Promise((resolvePromise) => {
    s.child.once('exit', (code) => resolvePromise(code));
    s.child.kill('SIGTERM');
  });
}

describe('npm start (embedded default)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'voiceplane-main-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('serves health, prints a working demo key once, keeps data across a restart and stops cleanly', async () => {
    expect(existsSync(MAIN)).toBe(true);
    const first = await start(dataDir);
    const key = /API key \(shown once\):\s+(vp_[A-Za-z0-9]{40})/.exec(first.output())?.[1];
    expect(key).toBeDefined();
    expect(first.output()).toMatch(/ADMIN_TOKEN \(generated and stored; shown once\):\s+\S{40}/);
    const health = await fetch(`${first.base}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok', version: '1.0.0' });
    const me = await fetch(`${first.base}/api/user/me`, { headers: { Authorization: `Bearer ${key}` } });
    expect(me.status).toBe(200);
    expect(await me.json()).toEqual(
      expect.objectContaining({ name: 'Demo User', email: 'demo@voiceplane.local', total_balance: 25 }),
    );
    const created = await fetch(`${first.base}/api/user/api-keys`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'survives restart' }),
    });
    expect(created.status).toBe(201);
    expect(await stop(first)).toBe(0);

    const second = await start(dataDir);
    expect(second.output()).not.toContain('shown once');
    expect(second.output()).toContain('No key at hand? Run `npm start -- --new-demo-key` for a fresh demo API key.');
    const keys = await fetch(`${second.base}/api/user/api-keys`, { headers: { Authorization: `Bearer ${key}` } });
    expect(keys.status).toBe(200);
    const body = (await keys.json()) as { api_keys: Array<{ name: string }> };
    expect(body.api_keys.map((k) => k.name)).toEqual(['survives restart', 'default']);
    expect(await stop(second)).toBe(0);

    const third = await start(dataDir, ['--new-demo-key']);
    const fresh = /new API key \(shown once\):\s+(vp_[A-Za-z0-9]{40})/.exec(third.output())?.[1];
    expect(fresh).toBeDefined();
    expect(fresh).not.toBe(key);
    expect(third.output()).not.toContain('No key at hand?');
    for (const token of [fresh, key]) {
      const me = await fetch(`${third.base}/api/user/me`, { headers: { Authorization: `Bearer ${token}` } });
      expect(me.status).toBe(200);
      expect(await me.json()).toEqual(expect.objectContaining({ email: 'demo@voiceplane.local' }));
    }
    const after = await fetch(`${third.base}/api/user/api-keys`, { headers: { Authorization: `Bearer ${fresh}` } });
    expect(((await after.json()) as { api_keys: Array<{ name: string }> }).api_keys.map((k) => k.name)).toEqual([
      'new-demo-key',
      'survives restart',
      'default',
    ]);
    expect(await stop(third)).toBe(0);
  }, 480_000);

  it('refuses an unknown option before starting anything', async () => {
    const untouched = join(dataDir, 'never-created');
    const child = spawnMain(untouched, ['--new-demo-kye']);
    let err = '';
    child.stderr!.on('data', (d) => (err += d));
    const code = await new Promise<number | null>((resolvePromise) => child.once('exit', resolvePromise));
    expect(code).toBe(2);
    expect(err).toContain('voiceplane: unknown option "--new-demo-kye"');
    expect(err).toContain('usage: npm start [-- --new-demo-key]');
    expect(existsSync(untouched)).toBe(false);
  }, 30_000);
});
