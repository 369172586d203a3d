/**
 * GET /api/user/analytics/calls over an account with 100,000 calls (five assistants, the last 90
 * days; another account holds as many, which the figures must not read), through the composed api:
 * the default 30 days, 90 days, and 90 days of one assistant.
 *   npx tsc -b && node tools/dist/bench/call-analytics.js     (DATABASE_URL=… for real PostgreSQL)
 */
import { benchDatabase, measure, runBench, settings } from './lib/harness';
import { benchUser, startComposedApi } from './lib/composed-api';

const CALLS = Number(process.env.BENCH_CALLS ?? 100_000);
const ASSISTANTS = 5;
const DAYS = 90;

/** Calls spread over the last DAYS days with every status, durations, costs, ended reasons and a goal variable. */
async function seedCalls(
  db: Awaited<ReturnType<typeof benchDatabase>>,
  userId: number,
  firstAssistant: number,
): Promise<void> {
  await db.dataSource.query(
    `INSERT INTO calls (user_id, assistant_id, direction, channel, status, customer_phone, extracted_variables, duration, cost, ended_reason,
                        runtime_config, created_at, answered_at, finished_at, updated_at)
     SELECT $1, $2 + (i % ${ASSISTANTS}), 'outbound', 'phone',
            (ARRAY['completed','completed','completed','no-answer','busy','failed','canceled'])[1 + i % 7],
            '+1415555' || lpad((i % 10000)::text, 4, '0'),
            json_build_object('status', i % 3 <> 0, 'summary', 'Call ' || i),
            CASE WHEN i % 7 < 3 THEN 20 + i % 300 ELSE 0 END,
            CASE WHEN i % 7 < 3 THEN 0.1 * (1 + (20 + i % 300) / 60) ELSE 0 END,
            (ARRAY['customer_hangup','assistant_hangup','silence_timeout','max_duration','voicemail'])[1 + i % 5],
            '{}'::json, t, CASE WHEN i % 7 < 3 THEN t END, t + interval '5 minutes', t
       FROM generate_series(1, $3) AS i, LATERAL (SELECT now() - (i % (${DAYS} * 24 * 60)) * interval '1 minute' AS t) x`,
    [userId, firstAssistant, CALLS],
  );
  // As autovacuum leaves a table at rest: the visibility map lets the p95 read durations from the index alone.
  await db.dataSource.query('VACUUM ANALYZE calls');
}

async function main(): Promise<void> {
  const db = await benchDatabase();
  const api = await startComposedApi(db);
  const user = await benchUser(api.url, api.runtime.adminToken);
  const neighbour = await benchUser(api.url, api.runtime.adminToken);
  const seeding = Date.now();
  await seedCalls(db, user.id, 1);
  await seedCalls(db, neighbour.id, 1);
  process.stdout.write(`seeded ${2 * CALLS} calls in ${((Date.now() - seeding) / 1000).toFixed(1)} s\n`);
  const headers = { Authorization: `Bearer ${user.token}` };
  const from = new Date(Date.now() - (DAYS - 1) * 86_400_000).toISOString().slice(0, 10);

  const check = (await (await fetch(`${api.url}/api/user/analytics/calls?from=${from}`, { headers })).json()) as {
    data: { totals: { calls: number } };
  };
  if (check.data.totals.calls !== CALLS)
    throw new Error(`the dashboard counted ${check.data.totals.calls} calls, not ${CALLS}`);

  process.stdout.write(
    `\nGET /api/user/analytics/calls, ${CALLS} calls of the account (+${CALLS} of another)  (${settings.connections} connections, ${settings.duration} s, ${process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite'})\n`,
  );
  for (const [label, query] of [
    ['30 days (default)', ''],
    [`${DAYS} days`, `?from=${from}`],
    [`${DAYS} days, one assistant`, `?from=${from}&assistant_id=2`],
    // Not the roll-ups' goal: completed calls' variables are read.
    [`${DAYS} days, goal 'summary'`, `?from=${from}&goal_variable=summary`],
  ]) {
    const m = await measure(label, `${api.url}/api/user/analytics/calls${query}`, headers);
    process.stdout.write(
      `  ${label.padEnd(26)} ${m.rps.toFixed(1).padStart(8)} req/s   p50 ${String(m.p50).padStart(5)} ms   p99 ${String(m.p99).padStart(5)} ms   non-2xx ${m.non2xx}\n`,
    );
  }
  await api.close();
  await db.close();
}

runBench(main);
