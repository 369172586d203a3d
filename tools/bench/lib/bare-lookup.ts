/**
 * The twin of `automation-hook`: express + pg doing the `midcall_lookup_table` automation's own
 * read — the row of TABLE_ID whose `order_number` matches the posted key — and nothing else. Run as
 * its own process (named prepared statement) it prints its URL on stdout.
 *   DATABASE_URL=… TABLE_ID=… node tools/dist/bench/lib/bare-lookup.js
 */
import express from 'express';
import type { Pool } from 'pg';
import { serveBareProcess } from './bare-process';

export function bareLookupApp(pool: Pool, tableId: number, prepared: boolean): express.Express {
  const app = express();
  app.use(express.json());
  app.post('/lookup', async (req, res) => {
    const r = await pool.query({
      name: prepared ? 'bare_lookup_row' : undefined,
      text: `SELECT values FROM automation_table_rows WHERE table_id = $1 AND lower(btrim(values ->> $2)) = lower(btrim($3)) ORDER BY id LIMIT 1`,
      values: [tableId, 'order_number', String(req.body.key)],
    });
    res.json(r.rows[0] ? { found: true, row: r.rows[0].values } : { found: false });
  });
  return app;
}

if (require.main === module) serveBareProcess((pool) => bareLookupApp(pool, Number(process.env.TABLE_ID), true));
