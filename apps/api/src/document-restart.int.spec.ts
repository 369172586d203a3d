import { ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { createTestDatabase, eventually, TestDatabase } from '@voiceplane/test-env';

/**
 * The api process (built output) killed while it reads a large document and started again on the
 * same database: the job runs again after the restart, and health answers at once and throughout
 * (the old api printed "listening" and then held its event loop with the job's text).
 */
const MAIN = resolve(__dirname, '..', 'dist', 'main.js');
const ADMIN_TOKEN = 'restart-admin-token-0123456789abcdef';
/** See document-processing.int.spec.ts: with a few dozen answers a p99 is a second maximum, so the p90 and the maximum are held. */
const HEALTH_P90_MS = 600;

interface Api {
  readonly child: ChildProcess;
  readonly base: string;
}

function startApi(databaseUrl: string): Promise<Api> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    PORT: '0',
    HOST: '127.0.0.1',
    ADMIN_TOKEN,
    LOG_LEVEL: 'warn',
  };
  delete env.AMQP_URL;
  const child = spawn(process.execPath, [MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stderr!.on('data', (d) => (out += d));
  return new Promise((done, failed) => {
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) done({ child, base: m[1] });
    });
    child.once('exit', (code) => failed(new Error(`exited with ${code} before listening:\n${out}`)));
  });
}

function exited(child: ChildProcess, signal: NodeJS.Signals): Promise<unknown> {
  const gone = new Promise((done) => child.once('exit', done));
  child.kill(signal);
  return gone;
}

async function json(res: Response): Promise<{ status: number; body: Record<string, any> }> {
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => db.close());

it('answers health at once and throughout when it restarts in the middle of reading a 10 MB text', async () => {
  const first = await startApi(db.url);
  let second: Api | undefined;
  try {
    const admin = { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' };
    const user = await json(
      await fetch(`${first.base}/api/admin/users`, {
        method: 'POST',
        headers: admin,
        body: JSON.stringify({ name: 'Big', email: `big.${process.pid}@example.test` }),
      }),
    );
    expect(user.status).toBe(201);
    const auth = { Authorization: `Bearer ${user.body.api_key.token}` };
    const kb = await json(
      await fetch(`${first.base}/api/user/knowledgebases`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Big' }),
      }),
    );
    const form = new FormData();
    form.set('name', 'ten.txt');
    form.set('type', 'file');
    const text = 'All work and no play makes Jack a dull boy.\n'.repeat(Math.floor((10 * 1000 * 1000) / 44));
    form.set('file', new Blob([text], { type: 'text/plain' }), 'ten.txt');
    const path = `/api/user/knowledgebases/${kb.body.data.id}/documents`;
    const added = await json(await fetch(`${first.base}${path}`, { method: 'POST', headers: auth, body: form }));
    expect(added.status).toBe(201);
    const key = `kb-document:${added.body.data.id}`;

    // Killed once its job is claimed, before the passages are stored.
    const claimed = async () =>
      (await db.dataSource.query(`SELECT 1 FROM scheduled_jobs WHERE key = $1 AND locked_until IS NOT NULL`, [key]))
        .length === 1;
    await eventually(claimed, 'the document job to be claimed');
    await exited(first.child, 'SIGKILL');
    const [left] = await db.dataSource.query(`SELECT status FROM knowledge_base_documents WHERE id = $1`, [
      added.body.data.id,
    ]);
    expect(left.status).toBe('processing');
    // The dead process's lease would run out in a minute; moved instead of waited for.
    await db.dataSource.query(`UPDATE scheduled_jobs SET locked_until = now() WHERE key = $1`, [key]);

    second = await startApi(db.url);
    const started = performance.now();
    expect((await fetch(`${second.base}/api/health`)).status).toBe(200);
    expect(performance.now() - started).toBeLessThan(2_000);
    const latencies: number[] = [];
    let status = 'processing';
    await eventually(
      async () => {
        const asked = performance.now();
        expect((await fetch(`${second!.base}/api/health`)).status).toBe(200);
        latencies.push(performance.now() - asked);
        const doc = await json(await fetch(`${second!.base}${path}/${added.body.data.id}`, { headers: auth }));
        status = doc.body.data.status;
        return status !== 'processing';
      },
      'the document processed after the restart',
      120_000,
    );
    expect(status).toBe('ready');
    latencies.sort((x, y) => x - y);
    expect(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.9))]).toBeLessThan(HEALTH_P90_MS);
    // A single stall hides in a percentile: the old api held its loop once, for seconds.
    expect(latencies[latencies.length - 1]).toBeLessThan(2_000);
    expect(await exited(second.child, 'SIGTERM')).toBe(0);
  } finally {
    if (first.child.exitCode === null && first.child.signalCode === null) await exited(first.child, 'SIGKILL');
    if (second && second.child.exitCode === null && second.child.signalCode === null)
      await exited(second.child, 'SIGKILL');
  }
}, 300_000);
