/**
 * GET /api/user/phone-numbers/search (sandbox inventory, two numbers of the country already owned
 * by other accounts) against a bare express + pg twin doing the same work on the same database:
 * token lookup, the ownership query over the offers, and the same answer built from an in-memory
 * catalogue (lib/bare-search.ts).
 *  - in this process: the composed api and the twin without prepared statements;
 *  - with DATABASE_URL, each in its own process as the product runs: apps/api from its built entry
 *    and the twin with named prepared statements, interleaved rounds (BENCH_ROUNDS, 3) — the figure
 *    `npm run bench` reports.
 *   npx tsc -b && node tools/dist/bench/number-search.js     (DATABASE_URL=… for real PostgreSQL)
 */
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { benchDatabase, listen, measure, report, runBench } from './lib/harness';
import { benchUser, startComposedApi } from './lib/composed-api';
import { bareSearchApp, type Offer } from './lib/bare-search';
import { startApiProcess, startBareProcess } from './lib/processes';
import { interleavedRounds, ownProcessesOnly } from './lib/rounds';

const QUERY = 'country_code=GB&contains=79';

async function search(url: string, token: string): Promise<{ data: Offer[] }> {
  const res = await fetch(`${url}/api/user/phone-numbers/search?${QUERY}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  return (await res.json()) as { data: Offer[] };
}

async function main(): Promise<void> {
  const db = await benchDatabase();
  const api = await startComposedApi(db);
  const user = await benchUser(api.url, api.runtime.adminToken);
  const headers = { Authorization: `Bearer ${user.token}` };

  // The full catalogue answer before anything is owned is the twin's in-memory inventory.
  const catalogue = (await search(api.url, user.token)).data;
  const buyer = await benchUser(api.url, api.runtime.adminToken);
  for (const offer of catalogue.filter((o) => o.address_requirements === 'none').slice(0, 2)) {
    const res = await fetch(`${api.url}/api/user/phone-numbers/purchase`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${buyer.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ phone_number: offer.phone_number }),
    });
    if (res.status !== 201) throw new Error(`seeding failed: ${res.status} ${await res.text()}`);
  }
  const title = `GET /api/user/phone-numbers/search?${QUERY} (${catalogue.length - 2} results, 2 owned numbers skipped)`;

  if (!ownProcessesOnly) {
    // The same pool size as the api's (embedded PGlite accepts only 16 connections in all).
    const pool = new Pool({ connectionString: db.url, max: process.env.DATABASE_URL ? 20 : 8 });
    const baseline = await listen(bareSearchApp(pool, catalogue, false));
    // Same answer from both, or the comparison means nothing.
    const ours = await search(api.url, user.token);
    const theirs = await (await fetch(`${baseline.url}/search?${QUERY}`, { headers })).json();
    if (JSON.stringify(ours) !== JSON.stringify(theirs) || ours.data.length !== catalogue.length - 2)
      throw new Error('voiceplane and the twin disagree');
    const subject = await measure(
      'voiceplane GET /phone-numbers/search',
      `${api.url}/api/user/phone-numbers/search?${QUERY}`,
      headers,
    );
    const base = await measure('bare express + pg (own reads only)', `${baseline.url}/search?${QUERY}`, headers);
    report(`${title}, in this process`, subject, base);
    await baseline.close();
    await new Promise((r) => setTimeout(r, 500));
    await pool.end();
  }
  await api.close();

  if (process.env.DATABASE_URL) {
    const catalogueFile = join(tmpdir(), `vp-bench-catalogue-${process.pid}.json`);
    writeFileSync(catalogueFile, JSON.stringify(catalogue));
    const apiProcess = await startApiProcess(db.url);
    const bare = await startBareProcess('bare-search.js', { DATABASE_URL: db.url, CATALOGUE_FILE: catalogueFile });
    try {
      const own = await benchUser(apiProcess.url, apiProcess.adminToken);
      const ownHeaders = { Authorization: `Bearer ${own.token}` };
      const ours = await search(apiProcess.url, own.token);
      const theirs = await (await fetch(`${bare.url}/search?${QUERY}`, { headers: ownHeaders })).json();
      if (JSON.stringify(ours) !== JSON.stringify(theirs)) throw new Error('voiceplane and the twin disagree');
      process.stdout.write(`\n${title}, each in its own process (PostgreSQL)\n`);
      await interleavedRounds(
        'number-search',
        () => measure('voiceplane (apps/api)', `${apiProcess.url}/api/user/phone-numbers/search?${QUERY}`, ownHeaders),
        () => measure('bare, prepared (own process)', `${bare.url}/search?${QUERY}`, ownHeaders),
      );
    } finally {
      apiProcess.stop();
      bare.stop();
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  await db.close();
}

runBench(main);
