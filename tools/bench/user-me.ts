/**
 * GET /api/user/me with API-key auth against bare express + pg handlers doing only the operation's
 * own reads (token lookup, user read; not the product's rate-limit write) on the same database, in
 * the same run:
 *  - in this process: the composed api and a bare handler without prepared statements;
 *  - with DATABASE_URL, each in its own process as the product runs: apps/api from its built entry
 *    and the bare handler with named prepared statements (lib/bare-me.ts) — the baseline the
 *    per-request target is measured against.
 *   npx tsc -b && DATABASE_URL=… node tools/dist/bench/user-me.js
 */
import { Pool } from 'pg';
import { benchDatabase, listen, measure, report, runBench } from './lib/harness';
import { benchUser, startComposedApi } from './lib/composed-api';
import { bareMeApp } from './lib/bare-me';
import { startApiProcess, startBareProcess } from './lib/processes';

async function main(): Promise<void> {
  const db = await benchDatabase();
  const api = await startComposedApi(db);
  const user = await benchUser(api.url, api.runtime.adminToken);
  const headers = { Authorization: `Bearer ${user.token}` };

  const pool = new Pool({ connectionString: db.url, max: process.env.DATABASE_URL ? 20 : 8 });
  const baseline = await listen(bareMeApp(pool, false));

  const subject = await measure('voiceplane GET /api/user/me', `${api.url}/api/user/me`, headers);
  const base = await measure('bare express + pg (own reads only)', `${baseline.url}/me`, headers);
  report('GET /api/user/me, in this process', subject, base);

  await baseline.close();
  // Requests autocannon left in flight finish before the pools close.
  await new Promise((r) => setTimeout(r, 500));
  await api.close();

  if (process.env.DATABASE_URL) {
    const apiProcess = await startApiProcess(db.url);
    const bare = await startBareProcess('bare-me.js', { DATABASE_URL: db.url });
    try {
      const own = await benchUser(apiProcess.url, apiProcess.adminToken);
      const ownHeaders = { Authorization: `Bearer ${own.token}` };
      const product = await measure('voiceplane (apps/api, own process)', `${apiProcess.url}/api/user/me`, ownHeaders);
      const prepared = await measure('bare, prepared (own process)', `${bare.url}/me`, ownHeaders);
      report('GET /api/user/me, each in its own process', product, prepared);
    } finally {
      apiProcess.stop();
      bare.stop();
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  await pool.end();
  await db.close();
}

runBench(main);
