/**
 * The synchronous `midcall_lookup_table` automation through its `webhook_url` against a bare
 * express + pg twin doing the same table lookup on the same database (lib/bare-lookup.ts). The
 * template is applied through the API (real test included). The hook's per-automation limit is
 * raised for the run but still consulted on every request, as in production.
 *  - in this process: the composed api and the twin without prepared statements;
 *  - with DATABASE_URL, each in its own process as the product runs: apps/api from its built entry
 *    and the twin with a named prepared statement, interleaved rounds (BENCH_ROUNDS, 3) — the figure
 *    `npm run bench` reports as `automation-hook`.
 *   npx tsc -b && node tools/dist/bench/automation-lookup.js        (DATABASE_URL=… for real PostgreSQL)
 */
import { Pool } from 'pg';
import { benchDatabase, listen, measure, report, runBench } from './lib/harness';
import { benchUser, startComposedApi } from './lib/composed-api';
import { bareLookupApp } from './lib/bare-lookup';
import { startApiProcess, startBareProcess } from './lib/processes';
import { interleavedRounds, ownProcessesOnly } from './lib/rounds';

const ROWS = 1_000;
const KEY = 'A-0500';
const BODY = JSON.stringify({ key: KEY });
const JSON_HEADERS = { 'content-type': 'application/json' };
const ENV = { AUTOMATION_HOOK_RATE_PER_MINUTE: '1000000' };

async function json(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, {
    method,
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? {} : JSON.parse(text) };
}

/** A user with a 1,000-row table and the template applied; its hook URL and the table's id. */
async function applyTemplate(url: string, adminToken: string): Promise<{ hook: string; tableId: number }> {
  const user = await benchUser(url, adminToken);
  const auth = { Authorization: `Bearer ${user.token}` };
  const table = await json(`${url}/api/user/automate/tables`, 'POST', auth, {
    name: 'Orders',
    columns: [
      { name: 'order_number', type: 'string' },
      { name: 'status', type: 'string' },
    ],
  });
  const tableId = (table.body.data as { id: number }).id;
  const rows = Array.from({ length: ROWS }, (_, i) => ({
    values: { order_number: `A-${String(i).padStart(4, '0')}`, status: i % 2 ? 'shipped' : 'pending' },
  }));
  for (let i = 0; i < rows.length; i += 500)
    await json(`${url}/api/user/automate/tables/${tableId}/rows`, 'POST', auth, { rows: rows.slice(i, i + 500) });
  const assistant = await json(`${url}/api/user/assistant`, 'POST', auth, {
    name: 'Bench',
    system_prompt: 'Be brief.',
  });
  const applied = await json(`${url}/api/user/automate/templates/midcall_lookup_table`, 'POST', auth, {
    params: { table_id: tableId, key_column: 'order_number' },
    assistant_id: (assistant.body.data as { id: number }).id,
  });
  if (applied.status !== 201) throw new Error(`apply failed: ${applied.status} ${JSON.stringify(applied.body)}`);
  const hook = `${url}${new URL(applied.body.webhook_url as string).pathname}`;
  const check = await json(hook, 'POST', {}, { key: KEY });
  if (check.status !== 200 || !JSON.stringify(check.body).includes('"found":true'))
    throw new Error(`the hook did not answer: ${check.status} ${JSON.stringify(check.body)}`);
  return { hook, tableId };
}

async function main(): Promise<void> {
  const db = await benchDatabase();
  const title = `midcall_lookup_table lookup through its webhook_url (${ROWS} rows)`;

  if (!ownProcessesOnly) {
    const api = await startComposedApi(db, ENV);
    const { hook, tableId } = await applyTemplate(api.url, api.runtime.adminToken);
    const pool = new Pool({ connectionString: db.url, max: process.env.DATABASE_URL ? 20 : 8 });
    const baseline = await listen(bareLookupApp(pool, tableId, false));
    const subject = await measure('POST webhook_url (sync)', hook, JSON_HEADERS, 'POST', BODY);
    const base = await measure('bare express + pg (same lookup)', `${baseline.url}/lookup`, JSON_HEADERS, 'POST', BODY);
    report(`${title}, in this process`, subject, base);
    await baseline.close();
    // Requests autocannon left in flight finish before the pools close.
    await new Promise((r) => setTimeout(r, 500));
    await pool.end();
    await api.close();
  }

  if (process.env.DATABASE_URL) {
    const apiProcess = await startApiProcess(db.url, ENV);
    try {
      const { hook, tableId } = await applyTemplate(apiProcess.url, apiProcess.adminToken);
      const bare = await startBareProcess('bare-lookup.js', { DATABASE_URL: db.url, TABLE_ID: String(tableId) });
      try {
        process.stdout.write(`\n${title}, each in its own process (PostgreSQL)\n`);
        await interleavedRounds(
          'automation-hook',
          () => measure('voiceplane (apps/api)', hook, JSON_HEADERS, 'POST', BODY),
          () => measure('bare, prepared (own process)', `${bare.url}/lookup`, JSON_HEADERS, 'POST', BODY),
        );
      } finally {
        bare.stop();
      }
    } finally {
      apiProcess.stop();
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  await db.close();
}

runBench(main);
