/**
 * GET /api/user/phone-numbers/search (sandbox inventory, two numbers of the country already owned
 * by other accounts) against a bare express + pg handler doing the same work on the same database
 * in the same run: token lookup, the ownership query over the offers,
 * and the same answer built from an in-memory catalogue.
 *   npx tsc -b && node tools/dist/bench/number-search.js     (DATABASE_URL=… for real PostgreSQL)
 */
import express from 'express';
import { Pool } from 'pg';
import { benchDatabase, listen, measure, report, runBench } from './lib/harness';
import { bareAuthenticate } from './lib/bare-auth';
import { benchUser, startComposedApi } from './lib/composed-api';

const QUERY = 'country_code=GB&contains=79';

interface Offer {
  phone_number: string;
  phone_number_formatted: string;
  country_code: string;
  price: number;
  billing_price_id: string;
  address_requirements: string;
  sms_capable: boolean;
}

async function main(): Promise<void> {
  const db = await benchDatabase();
  const api = await startComposedApi(db);
  const user = await benchUser(api.url, api.runtime.adminToken);
  const headers = { Authorization: `Bearer ${user.token}` };
  const search = async () =>
    (await (await fetch(`${api.url}/api/user/phone-numbers/search?${QUERY}`, { headers })).json()) as { data: Offer[] };

  // The full catalogue answer before anything is owned is the baseline's in-memory inventory.
  const catalogue = (await search()).data;
  const buyer = await benchUser(api.url, api.runtime.adminToken);
  for (const offer of catalogue.filter((o) => o.address_requirements === 'none').slice(0, 2)) {
    const res = await fetch(`${api.url}/api/user/phone-numbers/purchase`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${buyer.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ phone_number: offer.phone_number }),
    });
    if (res.status !== 201) throw new Error(`seeding failed: ${res.status} ${await res.text()}`);
  }

  // The same pool size as the api's (embedded PGlite accepts only 16 connections in all).
  const pool = new Pool({ connectionString: db.url, max: process.env.DATABASE_URL ? 20 : 8 });
  const bare = express();
  bare.get('/search', async (req, res) => {
    try {
      const principal = await bareAuthenticate(pool, req);
      if (!principal) {
        res.status(401).json({ error: 'Unauthorized' });
        return;
      }
      const contains = String(req.query.contains ?? '');
      const offers = catalogue.filter((o) => o.phone_number.slice(1).includes(contains));
      const owned = await pool.query(
        `SELECT phone_number FROM phone_numbers WHERE type = 'purchased' AND phone_number = ANY($1::text[])`,
        [offers.map((o) => o.phone_number)],
      );
      const taken = new Set(owned.rows.map((r) => r.phone_number as string));
      res.json({ data: offers.filter((o) => !taken.has(o.phone_number)).slice(0, 20) });
    } catch (e) {
      if (process.env.BENCH_DEBUG) console.error(e);
      if (!res.headersSent) res.status(500).json({ message: 'Server error.' });
    }
  });
  const baseline = await listen(bare);

  // Same answer from both, or the comparison means nothing.
  const ours = await search();
  const theirs = await (await fetch(`${baseline.url}/search?${QUERY}`, { headers })).json();
  if (JSON.stringify(ours) !== JSON.stringify(theirs) || ours.data.length !== catalogue.length - 2)
    throw new Error('voiceplane and the baseline disagree');

  const subject = await measure(
    'voiceplane GET /phone-numbers/search',
    `${api.url}/api/user/phone-numbers/search?${QUERY}`,
    headers,
  );
  const base = await measure('bare express + pg (own reads only)', `${baseline.url}/search?${QUERY}`, headers);
  report(
    `GET /api/user/phone-numbers/search?${QUERY} (${ours.data.length} results, 2 owned numbers skipped)`,
    subject,
    base,
  );

  await baseline.close();
  await pool.end();
  await api.close();
  await db.close();
}

runBench(main);
