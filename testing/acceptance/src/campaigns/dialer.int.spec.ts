import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';
import { balanceOf, createAssistant, makeCall } from '@voiceplane/stand-ins/calls/fixtures';

/**
 * The dialer through the composed app with the sandbox runtime, driven by the tick route (no
 * background worker runs here, so nothing dials between two ticks).
 */

const NO_ANSWER = '+15005550002';
let t: TestApi;

beforeAll(async () => {
  t = await createTestApi({ startBackground: false });
});
afterAll(async () => t.close());

interface Setup {
  readonly user: TestUser;
  readonly assistant: number;
  readonly campaign: number;
}

async function campaignWith(
  leads: readonly string[],
  fields: Record<string, unknown> = {},
  options: { balance?: number; plan?: Record<string, unknown>; assistant?: Record<string, unknown> } = {},
): Promise<Setup> {
  const user = await t.createUser({ balance: options.balance ?? 100, plan: options.plan });
  const assistant = await createAssistant(t, user, options.assistant ?? {});
  const created = await t.http
    .post('/api/user/campaigns')
    .set(user.auth)
    .send({ name: 'Dialer', assistant_id: assistant, ...fields });
  if (created.status !== 201) throw new Error(`campaign: ${created.status} ${JSON.stringify(created.body)}`);
  const campaign = created.body.data.id as number;
  for (const phone of leads) {
    const res = await t.http
      .post('/api/user/lead')
      .set(user.auth)
      .send({ campaign_id: campaign, phone_number: phone, allow_dupplicate: true });
    if (res.status !== 200) throw new Error(`lead: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return { user, assistant, campaign };
}

const start = (s: Setup) =>
  t.http.post('/api/user/campaigns/update-status').set(s.user.auth).send({ campaign_id: s.campaign, action: 'start' });
const stop = (s: Setup) =>
  t.http.post('/api/user/campaigns/update-status').set(s.user.auth).send({ campaign_id: s.campaign, action: 'stop' });
async function tick(s: Setup, at?: Date): Promise<number[]> {
  const res = await t.http
    .post(`/api/sandbox/campaigns/${s.campaign}/tick`)
    .set(s.user.auth)
    .send(at ? { at: at.toISOString() } : {});
  if (res.status !== 200) throw new Error(`tick: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.placed;
}
const finish = (s: Setup, id: number, body: Record<string, unknown> = { status: 'completed' }) =>
  t.http.post(`/api/sandbox/calls/${id}/finish`).set(s.user.auth).send(body);
const campaignOf = async (s: Setup) =>
  (await t.http.get(`/api/user/campaign/${s.campaign}`).set(s.user.auth)).body.data;
async function campaignCalls(
  s: Setup,
): Promise<Array<{ id: number; status: string; lead_id: number; customer_phone: string }>> {
  return (await t.http.get(`/api/user/calls?campaign_id=${s.campaign}&per_page=100`).set(s.user.auth)).body.data;
}
const OPEN = ['initiated', 'queued', 'ringing', 'in-progress'];
const leadPhones = (n: number, base = 4155550000) => Array.from({ length: n }, (_, i) => `+1${base + i}`);

describe('the dialer', () => {
  it('calls 50 leads with never more than 3 open at once, each once, and completes by itself', async () => {
    const s = await campaignWith(leadPhones(50), { max_calls_in_parallel: 3 });
    expect((await start(s)).status).toBe(200);
    const called: string[] = [];
    for (let round = 0; round < 40; round++) {
      const placed = await tick(s);
      expect(await tick(s)).toEqual([]);
      const calls = await campaignCalls(s);
      const open = calls.filter((c) => OPEN.includes(c.status));
      expect(open.length).toBeLessThanOrEqual(3);
      if (placed.length === 0 && open.length === 0) break;
      for (const id of placed) {
        called.push(calls.find((c) => c.id === id)?.customer_phone ?? '?');
        expect((await finish(s, id)).status).toBe(200);
      }
    }
    expect([...called].sort()).toEqual(leadPhones(50).sort());
    const campaign = await campaignOf(s);
    expect(campaign).toMatchObject({ status: 'completed', completed_at: expect.any(String) });
    expect(campaign.stats).toMatchObject({
      leads_by_status: { completed: 50, created: 0, processing: 0 },
      calls_total: 50,
      calls_answered: 50,
    });
  });

  it("shares the account's max_concurrent_calls with a make_call placed at the same time", async () => {
    const s = await campaignWith(
      leadPhones(5, 4155551000),
      { max_calls_in_parallel: 3 },
      { plan: { max_concurrent_calls: 3 } },
    );
    await start(s);
    const direct = await makeCall(t, s.user, s.assistant);
    expect(await tick(s)).toHaveLength(2);
    expect(await tick(s)).toEqual([]);
    const limited = await t.http
      .post('/api/user/make_call')
      .set(s.user.auth)
      .send({ assistant_id: s.assistant, phone_number: '+14155559999' });
    expect(limited.status).toBe(429);
    await finish(s, direct);
    expect(await tick(s)).toHaveLength(1);
    expect((await campaignOf(s)).status).toBe('in-progress');
  });

  it('calls a no-answer lead again after retry_interval and not before, 1 + max_retries times in all', async () => {
    const s = await campaignWith([NO_ANSWER], { retry_interval: 10, max_retries: 2 });
    await start(s);
    const t0 = Date.now();
    expect(await tick(s)).toHaveLength(1);
    const lead = (await t.http.get(`/api/user/leads?campaign_id=${s.campaign}`).set(s.user.auth)).body.data[0];
    expect(lead).toMatchObject({ status: 'rescheduled', attempts: 1, next_attempt_at: expect.any(String) });
    const due = new Date(lead.next_attempt_at).getTime();
    expect(due - t0).toBeGreaterThanOrEqual(10 * 60_000 - 5_000);
    expect(await tick(s, new Date(due - 1_000))).toEqual([]);
    expect(await tick(s, new Date(due))).toHaveLength(1);
    const second = (await t.http.get(`/api/user/leads/${lead.id}`).set(s.user.auth)).body.data;
    expect(await tick(s, new Date(new Date(second.next_attempt_at).getTime() + 1))).toHaveLength(1);
    const last = (await t.http.get(`/api/user/leads/${lead.id}`).set(s.user.auth)).body.data;
    expect(last).toMatchObject({ status: 'reached-max-retries', attempts: 3, next_attempt_at: null });
    expect(await tick(s, new Date(Date.now() + 86_400_000))).toEqual([]);
    expect((await campaignOf(s)).status).toBe('completed');
  });

  it.each([
    [true, { booked: false }, 'rescheduled'],
    [true, {}, 'rescheduled'],
    [true, { booked: true }, 'completed'],
    [false, { booked: false }, 'completed'],
  ])('retry_on_goal_incomplete %s with %j leaves the lead %s', async (retry, extracted, status) => {
    const s = await campaignWith(
      ['+14155552000'],
      { retry_on_goal_incomplete: retry, goal_completion_variable: 'booked' },
      {
        assistant: { post_call_schema: [{ name: 'booked', type: 'bool', description: 'Booked a demo' }] },
      },
    );
    await start(s);
    const [call] = await tick(s);
    expect(
      (
        await finish(s, call, {
          status: 'completed',
          extracted_variables: { status: true, summary: 'x', ...extracted },
        })
      ).status,
    ).toBe(200);
    const lead = (await t.http.get(`/api/user/leads?campaign_id=${s.campaign}`).set(s.user.auth)).body.data[0];
    expect(lead.status).toBe(status);
  });

  it('a stop lets open calls finish and places no new ones; their outcome still applies', async () => {
    const s = await campaignWith(leadPhones(6, 4155553000), { max_calls_in_parallel: 3 });
    await start(s);
    const placed = await tick(s);
    expect(placed).toHaveLength(3);
    expect((await stop(s)).status).toBe(200);
    expect(await tick(s)).toEqual([]);
    for (const id of placed)
      expect((await finish(s, id)).body).toEqual({ ok: true, call: { id, status: 'completed' } });
    expect(await tick(s)).toEqual([]);
    const campaign = await campaignOf(s);
    expect(campaign).toMatchObject({ status: 'stopped', stop_reason: 'user' });
    expect(campaign.stats.leads_by_status).toMatchObject({ completed: 3, created: 3, processing: 0 });
    expect((await campaignCalls(s)).length).toBe(3);
  });

  it('keeps running without mark_complete_when_no_leads and calls a lead added later', async () => {
    const s = await campaignWith(['+14155554000'], { mark_complete_when_no_leads: false });
    await start(s);
    const [first] = await tick(s);
    await finish(s, first);
    expect(await tick(s)).toEqual([]);
    expect((await campaignOf(s)).status).toBe('in-progress');
    await t.http
      .post('/api/user/lead')
      .set(s.user.auth)
      .send({ campaign_id: s.campaign, phone_number: '+14155554001' });
    expect(await tick(s)).toHaveLength(1);
  });

  it("dials only inside the window, read in the campaign's zone", async () => {
    const s = await campaignWith(['+14155555000'], {
      timezone: 'America/New_York',
      allowed_days: ['monday'],
      allowed_hours_start_time: '09:00',
      allowed_hours_end_time: '17:00',
    });
    await start(s);
    expect(await tick(s, new Date('2026-03-02T13:59:59Z'))).toEqual([]);
    expect(await tick(s, new Date('2026-03-03T14:00:00Z'))).toEqual([]);
    expect(await tick(s, new Date('2026-03-02T22:00:30Z'))).toHaveLength(1);
  });

  it('calls secondary contacts when the primary does not answer', async () => {
    const s = await campaignWith([], { max_retries: 1, retry_interval: 10 });
    const lead = (
      await t.http
        .post('/api/user/lead')
        .set(s.user.auth)
        .send({
          campaign_id: s.campaign,
          phone_number: NO_ANSWER,
          secondary_contacts: [{ phone_number: '+14155556001', variables: { who: 'second' } }],
        })
    ).body.data;
    await start(s);
    expect(await tick(s)).toHaveLength(1);
    const [second] = await tick(s);
    const call = (await t.http.get(`/api/user/calls/${second}`).set(s.user.auth)).body.data;
    expect(call).toMatchObject({
      customer_phone: '+14155556001',
      lead_id: lead.secondary_contacts[0].id,
      campaign_id: s.campaign,
      variables: { who: 'second' },
    });
    await finish(s, second);
    const read = (await t.http.get(`/api/user/leads/${lead.id}`).set(s.user.auth)).body.data;
    expect(read).toMatchObject({ status: 'completed', secondary_contacts: [{ status: 'completed', attempts: 1 }] });
  });

  it('refuses to delete or move a lead being called (409), and accepts a variables-only update', async () => {
    const s = await campaignWith(['+14155557000']);
    await start(s);
    const [call] = await tick(s);
    const lead = (await t.http.get(`/api/user/leads?campaign_id=${s.campaign}`).set(s.user.auth)).body.data[0];
    const del = await t.http.delete(`/api/user/leads/${lead.id}`).set(s.user.auth);
    expect({ status: del.status, body: del.body }).toEqual({
      status: 409,
      body: { message: 'The lead is being called and cannot be deleted now.' },
    });
    const upd = await t.http.put(`/api/user/leads/${lead.id}`).set(s.user.auth).send({ status: 'created' });
    expect({ status: upd.status, body: upd.body }).toEqual({
      status: 409,
      body: { message: 'The lead is being called. Try again when the call has ended.' },
    });
    expect(
      (
        await t.http
          .put(`/api/user/leads/${lead.id}`)
          .set(s.user.auth)
          .send({ variables: { note: 'x' } })
      ).status,
    ).toBe(200);
    await finish(s, call);
    expect((await t.http.delete(`/api/user/leads/${lead.id}`).set(s.user.auth)).status).toBe(200);
  });

  it('stops with insufficient_balance and never spends past the reservations', async () => {
    // 5 minutes at 0.10: every open call holds one minute.
    const s = await campaignWith(leadPhones(10, 4155558000), { max_calls_in_parallel: 5 }, { balance: 0.5 });
    await start(s);
    const placed = await tick(s);
    expect(placed).toHaveLength(5);
    for (const id of placed) await finish(s, id, { status: 'completed', duration: 60 });
    expect(await tick(s)).toEqual([]);
    const campaign = await campaignOf(s);
    expect(campaign).toMatchObject({ status: 'stopped', stop_reason: 'insufficient_balance' });
    expect(await balanceOf(t, s.user)).toBe(0);
  });

  it('the post_call webhook carries the lead and the campaign', async () => {
    const s = await campaignWith(
      ['+14155559000'],
      { allowed_hours_start_time: '00:00', retry_interval: 30 },
      {
        assistant: { webhook_url: 'http://127.0.0.1:9/hook', is_webhook_active: true },
      },
    );
    await start(s);
    const [call] = await tick(s);
    await finish(s, call);
    const deliveries = (await t.http.get('/api/user/webhooks/deliveries?event_type=post_call').set(s.user.auth)).body
      .data as Array<{ id: string; subject: { id: number } }>;
    const delivery = deliveries.find((d) => d.subject.id === call);
    const payload = (await t.http.get(`/api/user/webhooks/deliveries/${delivery?.id}`).set(s.user.auth)).body.data
      .payload;
    const lead = (await t.http.get(`/api/user/leads?campaign_id=${s.campaign}`).set(s.user.auth)).body.data[0];
    expect(payload.lead).toEqual({
      id: lead.id,
      phone_number: '+14155559000',
      variables: {},
      status: 'completed',
      created_at: lead.created_at,
      updated_at: lead.updated_at,
      campaign_id: s.campaign,
      primary_lead_id: null,
    });
    const campaign = await campaignOf(s);
    expect(payload.campaign).toEqual({
      id: s.campaign,
      name: 'Dialer',
      status: 'completed',
      allowed_hours_start_time: '00:00:00',
      allowed_hours_end_time: '23:59:00',
      allowed_days: campaign.allowed_days,
      max_calls_in_parallel: 3,
      max_retries: 3,
      retry_interval: 30,
      created_at: campaign.created_at,
      updated_at: campaign.updated_at,
    });
    const direct = await makeCall(t, s.user, s.assistant);
    await finish(s, direct);
    const all = (await t.http.get('/api/user/webhooks/deliveries?event_type=post_call').set(s.user.auth)).body
      .data as Array<{ id: string; subject: { id: number } }>;
    const plain = (
      await t.http.get(`/api/user/webhooks/deliveries/${all.find((d) => d.subject.id === direct)?.id}`).set(s.user.auth)
    ).body.data.payload;
    expect([plain.lead, plain.campaign]).toEqual([null, null]);
  });

  it("filters the calls list by campaign; a bad campaign id is a 422, another account's gives nothing", async () => {
    const s = await campaignWith(['+14155559100']);
    await start(s);
    const [call] = await tick(s);
    expect((await campaignCalls(s)).map((c) => c.id)).toEqual([call]);
    const bad = await t.http.get('/api/user/calls?campaign_id=abc').set(s.user.auth);
    expect({ status: bad.status, body: bad.body }).toEqual({
      status: 422,
      body: {
        message: 'The given data was invalid.',
        errors: { campaign_id: ['The campaign id must be an integer.'] },
      },
    });
    const stranger = await t.createUser();
    expect((await t.http.get(`/api/user/calls?campaign_id=${s.campaign}`).set(stranger.auth)).body.total).toBe(0);
  });

  it('raises campaign.started, campaign.stopped and campaign.completed through the outbox', async () => {
    const s = await campaignWith(['+14155559200']);
    await start(s);
    await stop(s);
    await start(s);
    const [call] = await tick(s);
    await finish(s, call);
    const events = (await t.db.dataSource.query(
      `SELECT topic, payload FROM outbox_events WHERE topic LIKE 'campaign.%' AND (payload->'campaign'->>'id')::bigint = $1 ORDER BY seq`,
      [s.campaign],
    )) as Array<{ topic: string; payload: { event: string; user_id: number; campaign: Record<string, unknown> } }>;
    expect(events.map((e) => [e.topic, e.payload.campaign.status, e.payload.campaign.stop_reason])).toEqual([
      ['campaign.started', 'in-progress', null],
      ['campaign.stopped', 'stopped', 'user'],
      ['campaign.started', 'in-progress', null],
      ['campaign.completed', 'completed', null],
    ]);
    expect(events[0].payload).toMatchObject({
      event: 'campaign.started',
      user_id: s.user.id,
      campaign: { id: s.campaign, name: 'Dialer', leads_count: 1 },
    });
  });
});
