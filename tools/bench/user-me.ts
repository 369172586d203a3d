/**
 * GET /api/user/me with API-key auth, against a bare express + pg handler doing only the operation's
 * own reads (token lookup, user read; not the product's rate-limit write) on the same database, in the same run.
 *   npx tsc -b && node tools/dist/bench/user-me.js        (DATABASE_URL=… for real PostgreSQL)
 */
import express from 'express';
import { Pool } from 'pg';
import { benchDatabase, listen, measure, report, runBench } from './lib/harness';
import { benchUser, startComposedApi } from './lib/composed-api';
import { bareAuthenticate } from './lib/bare-auth';

async function main(): Promise<void> {
  const db = await benchDatabase();
  const api = await startComposedApi(db);
  const user = await benchUser(api.url, api.runtime.adminToken);
  const headers = { Authorization: `Bearer ${user.token}` };

  const pool = new Pool({ connectionString: db.url, max: process.env.DATABASE_URL ? 20 : 8 });
  const bare = express();
  bare.get('/me', async (req, res) => {
    const principal = await bareAuthenticate(pool, req);
    if (!principal) { res.status(401).json({ error: 'Unauthorized' }); return; }
    const u = await pool.query(`SELECT id, name, email, password_hash, disabled, balance, plan, created_at, updated_at FROM users WHERE id = $1`, [principal.user_id]);
    const r = u.rows[0];
    res.json({ id: Number(r.id), name: r.name, email: r.email, total_balance: Number(r.balance), plan: r.plan });
  });
  const baseline = await listen(bare);

  const subject = await measure('voiceplane GET /api/user/me', `${api.url}/api/user/me`, headers);
  const base = await measure('bare express + pg (own reads only)', `${baseline.url}/me`, headers);
  report('GET /api/user/me', subject, base);

  await baseline.close();
  // Requests autocannon left in flight finish before the pools close.
  await new Promise((r) => setTimeout(r, 500));
  await pool.end();
  await api.close();
  await db.close();
}

runBench(main);
