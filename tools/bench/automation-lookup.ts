/**
 * The synchronous `midcall_lookup_table` automation against a bare express + pg
 * handler doing the same table lookup on the same database, in the same run. The template is applied
 * through the API (real test included); the subject is its `webhook_url` when the hook route
 * (issue 14) answers, else the same automation run as its mid-call tool through
 * `POST /api/runtime/tool-calls` (trigger → lookup_row → respond, the run stored like any other).
 *   npx tsc -b && node tools/dist/bench/automation-lookup.js        (DATABASE_URL=… for real PostgreSQL)
 */
import express from 'express';
import { Pool } from 'pg';
import { benchDatabase, listen, measure, report, runBench } from './lib/harness';
import { benchUser, startComposedApi } from './lib/composed-api';

const ROWS = 1_000;
const KEY = 'A-0500';

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

async function main(): Promise<void> {
  const db = await benchDatabase();
  // The hook's 60/min per automation would turn the run into a 429 benchmark; the
  // limiter is still consulted on every request, as in production.
  const api = await startComposedApi(db, { AUTOMATION_HOOK_RATE_PER_MINUTE: '1000000' });
  const user = await benchUser(api.url, api.runtime.adminToken);
  const auth = { Authorization: `Bearer ${user.token}` };

  const table = await json(`${api.url}/api/user/automate/tables`, 'POST', auth, {
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
    await json(`${api.url}/api/user/automate/tables/${tableId}/rows`, 'POST', auth, { rows: rows.slice(i, i + 500) });

  const assistant = await json(`${api.url}/api/user/assistant`, 'POST', auth, {
    name: 'Bench',
    system_prompt: 'Be brief.',
  });
  const assistantId = (assistant.body.data as { id: number }).id;
  const applied = await json(`${api.url}/api/user/automate/templates/midcall_lookup_table`, 'POST', auth, {
    params: { table_id: tableId, key_column: 'order_number' },
    assistant_id: assistantId,
  });
  if (applied.status !== 201) throw new Error(`apply failed: ${applied.status} ${JSON.stringify(applied.body)}`);
  const hookUrl = new URL(applied.body.webhook_url as string);
  const hook = `${api.url}${hookUrl.pathname}`;
  const body = JSON.stringify({ key: KEY });

  let subject;
  if ((await json(hook, 'POST', {}, { key: KEY })).status === 200) {
    subject = await measure('POST webhook_url (sync)', hook, { 'content-type': 'application/json' }, 'POST', body);
  } else {
    const tools = await json(`${api.url}/api/user/tools`, 'GET', auth);
    const toolId = (tools.body as unknown as Array<{ id: number }>)[0].id;
    const call = await json(`${api.url}/api/user/make_call`, 'POST', auth, {
      assistant_id: assistantId,
      phone_number: '+14155551234',
    });
    const runtimeAuth = { Authorization: `Bearer ${api.runtime.runtimeToken}` };
    const toolBody = JSON.stringify({ call_id: call.body.call_id, tool_id: toolId, params: { key: KEY } });
    const check = await json(`${api.url}/api/runtime/tool-calls`, 'POST', runtimeAuth, JSON.parse(toolBody));
    if (check.status !== 200 || !String(check.body.content).includes('"found":true'))
      throw new Error(`tool call failed: ${JSON.stringify(check.body)}`);
    subject = await measure(
      'automation tool (runtime tool-calls)',
      `${api.url}/api/runtime/tool-calls`,
      { ...runtimeAuth, 'content-type': 'application/json' },
      'POST',
      toolBody,
    );
  }

  const pool = new Pool({ connectionString: db.url, max: process.env.DATABASE_URL ? 20 : 8 });
  const bare = express();
  bare.use(express.json());
  bare.post('/lookup', async (req, res) => {
    const r = await pool.query(
      `SELECT values FROM automation_table_rows WHERE table_id = $1 AND lower(btrim(values ->> $2)) = lower(btrim($3)) ORDER BY id LIMIT 1`,
      [tableId, 'order_number', String(req.body.key)],
    );
    res.json(r.rows[0] ? { found: true, row: r.rows[0].values } : { found: false });
  });
  const baseline = await listen(bare);
  const base = await measure(
    'bare express + pg (same lookup)',
    `${baseline.url}/lookup`,
    { 'content-type': 'application/json' },
    'POST',
    body,
  );
  report(`midcall_lookup_table lookup (${ROWS} rows)`, subject, base);

  await baseline.close();
  // Requests autocannon left in flight finish before the pools close.
  await new Promise((r) => setTimeout(r, 500));
  await pool.end();
  await api.close();
  await db.close();
}

runBench(main);
