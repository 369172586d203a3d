import { TypeormCallAnalyticsRepository } from '@voiceplane/adapter-typeorm';
import { useTestDatabase } from '@voiceplane/test-env';
import { insertUser } from './postgres-fixtures';

/**
 * The daily roll-ups the dashboard reads agree exactly with the same figures read from every call,
 * through inserts, status changes, answers, cost changes, updates that change nothing counted,
 * multi-row updates and deletes — made with plain SQL, as any writer of `calls` would.
 */
const database = useTestDatabase();
const DAY = 86_400_000;
const START = Date.UTC(2030, 5, 1);
const range = (firstDay: number, days: number) => ({
  from: new Date(START + firstDay * DAY),
  until: new Date(START + (firstDay + days) * DAY),
});

describe('call daily roll-ups (PostgreSQL)', () => {
  let analytics: TypeormCallAnalyticsRepository;
  let users: number[];

  beforeEach(async () => {
    const db = database();
    await db.query('DELETE FROM calls');
    analytics = new TypeormCallAnalyticsRepository(db);
    users = [await insertUser(db), await insertUser(db)];
    // 1,200 calls over 10 days, two accounts, three assistants, every status; times on both sides of midnight.
    await db.query(`SELECT setseed(0.42)`);
    await db.query(
      `INSERT INTO calls (user_id, assistant_id, direction, channel, status, customer_phone, extracted_variables,
                          duration, cost, ended_reason, runtime_config, created_at, answered_at, updated_at)
       SELECT CASE WHEN i % 5 = 0 THEN $2 ELSE $1 END::bigint, 1 + i % 3, 'outbound', 'phone', st,
              '+14155550100',
              json_build_object('status', random() < 0.6, 'booked', CASE WHEN random() < 0.3 THEN 'TRUE' ELSE 'no' END),
              CASE WHEN answered THEN (random() * 600)::int ELSE 0 END,
              CASE WHEN answered THEN round((random() * 2)::numeric, 4) ELSE 0 END,
              CASE WHEN random() < 0.8 THEN (ARRAY['customer_hangup','assistant_ended','no_answer','voicemail'])[1 + i % 4] END,
              '{}', t, CASE WHEN answered THEN t END, t
         FROM generate_series(1, 1200) AS i,
              LATERAL (SELECT (ARRAY['initiated','ringing','in-progress','completed','completed','busy','no-answer','failed','canceled'])[1 + (i * 7) % 9] AS st) s,
              LATERAL (SELECT st IN ('in-progress', 'completed') OR (st = 'canceled' AND i % 2 = 0) AS answered) a,
              LATERAL (SELECT to_timestamp($3::double precision / 1000) + (i * 719 % 14400) * interval '1 minute' - interval '3 minutes' AS t) x`,
      [users[0], users[1], START],
    );
  });

  async function expectAgreement(): Promise<void> {
    for (const user of users)
      for (const [first, days] of [
        [0, 10],
        [-1, 12],
        [2, 3],
        [9, 1],
        [20, 5],
      ])
        for (const assistantId of [null, 2])
          for (const goalVariable of ['status', 'booked']) {
            const filter = { range: range(first, days), assistantId, goalVariable };
            const rolled = await analytics.count(user, filter);
            const raw = await analytics.countFromCalls(user, filter);
            expect({ filter, counts: rolled }).toEqual({ filter, counts: raw });
          }
  }

  it('agree after inserts', async () => {
    const whole = await analytics.count(users[0], { range: range(0, 10), assistantId: null, goalVariable: 'status' });
    expect(whole.totals.calls).toBeGreaterThan(900);
    expect(whole.endedReasons.length).toBeGreaterThan(0);
    await expectAgreement();
  });

  it('agree after calls move on, end, are re-priced, are touched without change, and are deleted', async () => {
    const db = database();
    // Calls in flight end, one at a time as the runtime ends them, and many at once.
    const open = await db.query<{ id: string }>(
      `SELECT id FROM calls WHERE status IN ('initiated', 'ringing', 'in-progress') ORDER BY id LIMIT 40`,
    );
    for (const { id } of open.slice(0, 20))
      await db.query(
        `UPDATE calls SET status = 'completed', answered_at = coalesce(answered_at, created_at), duration = 42, cost = 0.35,
                          ended_reason = 'customer_hangup', extracted_variables = '{"status":true}' WHERE id = $1`,
        [id],
      );
    await db.query(`UPDATE calls SET status = 'no-answer', ended_reason = 'no_answer' WHERE id = ANY($1::bigint[])`, [
      open.slice(20).map((r) => r.id),
    ]);
    // Only the transcript and the update time change: nothing counted moves.
    await db.query(`UPDATE calls SET transcript_items = '[{"role":"customer","content":"hi"}]', updated_at = now()
                     WHERE id IN (SELECT id FROM calls ORDER BY id LIMIT 100)`);
    await db.query(`UPDATE calls SET cost = cost + 0.0001 WHERE status = 'completed' AND id % 11 = 0`);
    await db.query(`UPDATE calls SET assistant_id = 3 WHERE assistant_id = 2 AND id % 13 = 0`);
    await db.query(`DELETE FROM calls WHERE id % 17 = 0`);
    await expectAgreement();
    // Nothing left over counts: the roll-ups equal a fresh grouping of the calls, row for row.
    const [{ differences }] = await db.query<{ differences: number }>(`
      SELECT count(*)::int AS differences FROM (
        (SELECT user_id, assistant_id, day, status, calls, answered, answered_duration, cost, goal_met
           FROM call_daily_stats WHERE calls <> 0
         EXCEPT
         SELECT user_id, assistant_id, (created_at AT TIME ZONE 'UTC')::date, status, count(*),
                count(*) FILTER (WHERE answered_at IS NOT NULL),
                coalesce(sum(duration) FILTER (WHERE answered_at IS NOT NULL), 0), sum(cost),
                count(*) FILTER (WHERE status = 'completed' AND lower(extracted_variables ->> 'status') = 'true')
           FROM calls GROUP BY 1, 2, 3, 4)
        UNION ALL
        (SELECT user_id, assistant_id, (created_at AT TIME ZONE 'UTC')::date, ended_reason, count(*), 0, 0, 0, 0
           FROM calls WHERE ended_reason IS NOT NULL GROUP BY 1, 2, 3, 4
         EXCEPT
         SELECT user_id, assistant_id, day, ended_reason, calls, 0, 0, 0, 0 FROM call_daily_reasons WHERE calls <> 0)) d`);
    expect(differences).toBe(0);
  });

  it('empties with a truncated calls table', async () => {
    const db = database();
    await db.query('TRUNCATE calls CASCADE');
    const [{ n }] = await db.query<{ n: number }>(
      `SELECT ((SELECT count(*) FROM call_daily_stats) + (SELECT count(*) FROM call_daily_reasons))::int AS n`,
    );
    expect(n).toBe(0);
  });
});
