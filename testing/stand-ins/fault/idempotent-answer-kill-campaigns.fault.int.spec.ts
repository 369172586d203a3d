import { createAssistant } from '../calls/fixtures';
import { crashTestbed, killWithAnswersHeld } from './held-answers';

/**
 * The campaign and lead writes that take an Idempotency-Key (create, stop, lead create, lead
 * import) across a real crash: the api process is SIGKILLed after each effect committed and before
 * its answer was sent (FAULT_HOLD_IDEMPOTENT_ANSWERS). Each retry on the restarted api replays the
 * answer stored in the effect's commit — the campaign and lead ids it made — and each effect is there once.
 *
 * Needs PostgreSQL (DATABASE_URL) and a built api (`npx tsc -b`).
 */
const runOrSkip = process.env.DATABASE_URL ? describe : describe.skip;

runOrSkip('Idempotency-Key of campaign and lead writes across a SIGKILL', () => {
  const bed = crashTestbed('vp-idem-campaign-kill-');

  it('each retry replays the first answer; each campaign, lead and status change is there once', async () => {
    const user = await bed.api.createUser({ balance: 10 });
    const assistant = await createAssistant(bed.api, user, { name: 'Dialer' });
    const campaign = async (name: string) =>
      (await bed.api.http.post('/api/user/campaigns').set(user.auth).send({ name, assistant_id: assistant })).body.data
        .id as number;
    const [running, target] = [await campaign('Running'), await campaign('Target')];
    await bed.db.dataSource.query(`UPDATE campaigns SET status = 'in-progress', started_at = now() WHERE id = $1`, [
      running,
    ]);
    const leads = (phone: string) => [
      `SELECT count(*)::int AS n FROM leads WHERE campaign_id = $1 AND phone_number = $2`,
      [target, phone],
    ];
    const routes = [
      {
        key: 'campaign-1',
        path: '/api/user/campaigns',
        body: { name: 'Crash campaign', assistant_id: assistant },
        status: 201,
        made: [`SELECT count(*)::int AS n FROM campaigns WHERE user_id = $1 AND name = 'Crash campaign'`, [user.id]],
      },
      {
        key: 'stop-1',
        path: '/api/user/campaigns/update-status',
        body: { campaign_id: running, action: 'stop' },
        status: 200,
        made: [`SELECT count(*)::int AS n FROM campaigns WHERE id = $1 AND status = 'stopped'`, [running]],
      },
      {
        key: 'lead-1',
        path: '/api/user/lead',
        body: { campaign_id: target, phone_number: '+14155550101' },
        status: 200,
        made: leads('+14155550101'),
      },
      {
        key: 'import-1',
        path: `/api/user/campaign/${target}/leads/import`,
        body: { leads: [{ phone_number: '+14155550102' }] },
        status: 200,
        made: leads('+14155550102'),
      },
      {
        key: 'do-not-call-1',
        path: '/api/user/do-not-call',
        body: { phone_number: '+14155550103' },
        status: 201,
        made: [
          `SELECT count(*)::int AS n FROM do_not_call_numbers WHERE user_id = $1 AND phone_number = '+14155550103'`,
          [user.id],
        ],
      },
    ];
    const send = (base: string, r: (typeof routes)[number], path: string = r.path) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: { ...user.auth, 'Content-Type': 'application/json', 'Idempotency-Key': r.key },
        body: JSON.stringify(r.body),
      });

    await killWithAnswersHeld(bed, routes, send);

    const restarted = await bed.startApi();
    const replayed = new Map<string, Record<string, unknown>>();
    for (const r of routes) {
      const retry = await send(restarted.base, r, `${r.path}/`);
      const body = (await retry.json()) as Record<string, unknown>;
      expect([r.path, retry.status, retry.headers.get('idempotent-replayed')]).toEqual([r.path, r.status, 'true']);
      const [{ n }] = await bed.db.dataSource.query(r.made[0] as string, [...(r.made[1] as unknown[])]);
      expect([r.path, n]).toEqual([r.path, 1]);
      replayed.set(r.key, body);
    }
    // The answers name what the first request made.
    const [made] = await bed.db.dataSource.query(`SELECT id::int AS id FROM campaigns WHERE name = 'Crash campaign'`);
    expect(replayed.get('campaign-1')).toMatchObject({ data: { id: made.id, name: 'Crash campaign' } });
    expect(replayed.get('stop-1')).toMatchObject({ success: true, data: { campaign_id: running, status: 'stopped' } });
    const [lead] = await bed.db.dataSource.query(`SELECT id::int AS id FROM leads WHERE phone_number = '+14155550101'`);
    expect(replayed.get('lead-1')).toMatchObject({ data: { id: lead.id } });
    expect(replayed.get('import-1')).toMatchObject({ accepted: 1, duplicates: 0, invalid_count: 0 });
    // A second add of the same number would say 0: the replay says what the first one added.
    expect(replayed.get('do-not-call-1')).toMatchObject({ added: 1 });
  });
});
