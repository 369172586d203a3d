/**
 * The honest baseline of `user-me`, run as its own process: express + pg with named prepared
 * statements doing only what `GET /api/user/me` needs from the database (the token lookup, the user
 * read). Prints its URL on stdout.
 *   DATABASE_URL=… node tools/dist/bench/lib/bare-me.js
 */
import express from 'express';
import { Pool } from 'pg';
import { bareAuthenticate } from './bare-auth';
import { serveBareProcess } from './bare-process';

export function bareMeApp(pool: Pool, prepared: boolean): express.Express {
  const app = express();
  app.get('/me', async (req, res) => {
    const principal = await bareAuthenticate(pool, req, prepared);
    if (!principal) {
      res.status(401).json({ error: 'Unauthorized' });
      return;
    }
    const u = await pool.query({
      name: prepared ? 'bare_me_user' : undefined,
      text: `SELECT id, name, email, password_hash, disabled, balance, plan, created_at, updated_at FROM users WHERE id = $1`,
      values: [principal.user_id],
    });
    const r = u.rows[0];
    res.json({ id: Number(r.id), name: r.name, email: r.email, total_balance: Number(r.balance), plan: r.plan });
  });
  return app;
}

if (require.main === module) serveBareProcess((pool) => bareMeApp(pool, true));
