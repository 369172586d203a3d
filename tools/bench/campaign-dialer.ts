/**
 * The campaign dialer on the composed api with its background work (the job runner holds the
 * dialer), sandbox calls that end at once (`+15005550002`, no answer):
 * - time from the start to the first call placed, and calls placed per second on a 10,000-lead
 *   campaign (10 lines), against make_call taking calls from 10 concurrent clients in the same run;
 * - the cost of an idle pass (100 running campaigns, nothing due) in wall time of its statements.
 *   npx tsc -b && node tools/dist/bench/campaign-dialer.js        (DATABASE_URL=… for real PostgreSQL)
 */
import { TOKENS } from '@voiceplane/application';
import { benchDatabase, runBench } from './lib/harness';
import { benchUser, startComposedApi } from './lib/composed-api';

const LEADS = Number(process.env.BENCH_LEADS ?? 10_000);
const MAKE_CALLS = Number(process.env.BENCH_MAKE_CALLS ?? 1_000);
const IDLE_CAMPAIGNS = 100;
const INSTANT = '+15005550002';

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
  const api = await startComposedApi(db);
  for (const task of api.runtime.background) await task.start();
  const user = await benchUser(api.url, api.runtime.adminToken);
  await db.dataSource.query(`UPDATE users SET balance = 100000 WHERE id = $1`, [user.id]);
  const auth = { Authorization: `Bearer ${user.token}` };
  const assistant = (
    (await json(`${api.url}/api/user/assistant`, 'POST', auth, { name: 'Bench', type: 'outbound' })).body.data as {
      id: number;
    }
  ).id;
  const count = async (sql: string, params: unknown[]) => Number((await db.dataSource.query(sql, params))[0].n);

  // make_call's own rate, 10 clients at once (the plan's 10 lines), calls ending at once.
  const began = Date.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (next < MAKE_CALLS) {
        next++;
        const res = await json(`${api.url}/api/user/make_call`, 'POST', auth, {
          assistant_id: assistant,
          phone_number: INSTANT,
        });
        if (res.status !== 200) throw new Error(`make_call: ${res.status} ${JSON.stringify(res.body)}`);
      }
    }),
  );
  const makeCallRate = MAKE_CALLS / ((Date.now() - began) / 1000);

  const campaign = (
    (
      await json(`${api.url}/api/user/campaigns`, 'POST', auth, {
        name: 'Bench',
        assistant_id: assistant,
        max_calls_in_parallel: 10,
        max_retries: 1,
        retry_interval: 4320,
      })
    ).body.data as { id: number }
  ).id;
  for (let i = 0; i < LEADS; i += 10_000) {
    const leads = Array.from({ length: Math.min(10_000, LEADS - i) }, (_, k) => ({
      phone_number: INSTANT,
      variables: { n: String(i + k) },
      allow_dupplicate: true,
    }));
    const imported = await json(`${api.url}/api/user/campaign/${campaign}/leads/import`, 'POST', auth, { leads });
    if (imported.status !== 200) throw new Error(`import: ${imported.status}`);
  }
  const started = Date.now();
  await json(`${api.url}/api/user/campaigns/update-status`, 'POST', auth, { campaign_id: campaign, action: 'start' });
  let firstCallMs = -1;
  for (;;) {
    const placed = await count(`SELECT count(*) AS n FROM calls WHERE campaign_id = $1`, [campaign]);
    if (placed > 0 && firstCallMs < 0) firstCallMs = Date.now() - started;
    if (placed >= LEADS) break;
    if (Date.now() - started > 600_000) throw new Error(`only ${placed} of ${LEADS} calls after 10 minutes`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const dialerRate = LEADS / ((Date.now() - started) / 1000);

  // Idle passes: running campaigns whose only lead waits for its next round.
  const dialer = api.runtime.container.get(TOKENS.CampaignDialer);
  // Another account: an account holds at most 100 campaigns.
  const idleUser = await benchUser(api.url, api.runtime.adminToken);
  const idleAuth = { Authorization: `Bearer ${idleUser.token}` };
  const idleAssistant = (
    (await json(`${api.url}/api/user/assistant`, 'POST', idleAuth, { name: 'Idle', type: 'outbound' })).body.data as {
      id: number;
    }
  ).id;
  const idle: number[] = [];
  for (let i = 0; i < IDLE_CAMPAIGNS; i++) {
    const id = (
      (
        await json(`${api.url}/api/user/campaigns`, 'POST', idleAuth, {
          name: `Idle ${i}`,
          assistant_id: idleAssistant,
          mark_complete_when_no_leads: false,
        })
      ).body.data as { id: number }
    ).id;
    await json(`${api.url}/api/user/lead`, 'POST', idleAuth, { campaign_id: id, phone_number: '+14155550100' });
    await json(`${api.url}/api/user/campaigns/update-status`, 'POST', idleAuth, { campaign_id: id, action: 'start' });
    idle.push(id);
  }
  await db.dataSource.query(
    `UPDATE leads SET status = 'rescheduled', next_attempt_at = now() + interval '1 day' WHERE campaign_id = ANY($1)`,
    [idle],
  );
  for (const id of idle) await dialer.pass(id, new Date());
  const rounds = 5;
  const tickStarted = process.hrtime.bigint();
  for (let r = 0; r < rounds; r++) for (const id of idle) await dialer.pass(id, new Date());
  const perTickMs = Number(process.hrtime.bigint() - tickStarted) / 1e6 / rounds;

  console.log(`campaign dialer (${LEADS} leads, 10 lines, instant sandbox calls)`);
  console.log(`  first call after start   ${firstCallMs} ms`);
  console.log(`  dialer                   ${dialerRate.toFixed(1)} calls/s`);
  console.log(`  make_call (10 clients)   ${makeCallRate.toFixed(1)} calls/s`);
  console.log(`  ratio                    ${(dialerRate / makeCallRate).toFixed(2)}`);
  console.log(
    `  idle tick, ${IDLE_CAMPAIGNS} campaigns  ${perTickMs.toFixed(1)} ms (${(perTickMs / IDLE_CAMPAIGNS).toFixed(2)} ms per campaign pass, wall time of its statements)`,
  );

  for (const task of [...api.runtime.background].reverse()) await task.stop();
  await api.close();
  await db.close();
}

runBench(main);
