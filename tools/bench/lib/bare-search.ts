/**
 * The twin of `number-search`, run as its own process: express + pg with named prepared statements
 * doing the token lookup and the ownership query over the offers, answering from the in-memory
 * catalogue (a JSON file, CATALOGUE_FILE) that the product's sandbox inventory returned before
 * anything was owned. Prints its URL on stdout.
 *   DATABASE_URL=… CATALOGUE_FILE=… node tools/dist/bench/lib/bare-search.js
 */
import { readFileSync } from 'node:fs';
import express from 'express';
import type { Pool } from 'pg';
import { bareAuthenticate } from './bare-auth';
import { serveBareProcess } from './bare-process';

export interface Offer {
  phone_number: string;
  phone_number_formatted: string;
  country_code: string;
  price: number;
  billing_price_id: string;
  address_requirements: string;
  sms_capable: boolean;
}

export function bareSearchApp(pool: Pool, catalogue: readonly Offer[], prepared: boolean): express.Express {
  const app = express();
  app.get('/search', async (req, res) => {
    try {
      const principal = await bareAuthenticate(pool, req, prepared);
      if (!principal) {
        res.status(401).json({ error: 'Unauthorized' });
        return;
      }
      const contains = String(req.query.contains ?? '');
      const offers = catalogue.filter((o) => o.phone_number.slice(1).includes(contains));
      const owned = await pool.query({
        name: prepared ? 'bare_search_owned' : undefined,
        text: `SELECT phone_number FROM phone_numbers WHERE type = 'purchased' AND phone_number = ANY($1::text[])`,
        values: [offers.map((o) => o.phone_number)],
      });
      const taken = new Set(owned.rows.map((r) => r.phone_number as string));
      res.json({ data: offers.filter((o) => !taken.has(o.phone_number)).slice(0, 20) });
    } catch (e) {
      if (process.env.BENCH_DEBUG) console.error(e);
      if (!res.headersSent) res.status(500).json({ message: 'Server error.' });
    }
  });
  return app;
}

if (require.main === module) {
  const catalogue = JSON.parse(readFileSync(process.env.CATALOGUE_FILE as string, 'utf8')) as Offer[];
  serveBareProcess((pool) => bareSearchApp(pool, catalogue, true));
}
