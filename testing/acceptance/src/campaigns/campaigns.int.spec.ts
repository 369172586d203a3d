import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';
import { createAssistant, createSipTrunk, ISO, purchaseNumber } from '@voiceplane/stand-ins/calls/fixtures';

/** Campaign routes through the composed app: Famulor's paths, their aliases, and another account's campaigns. */

const INVALID = 'The given data was invalid.';
let t: TestApi;
let owner: TestUser;
let stranger: TestUser;
let assistant: number;

beforeAll(async () => {
  t = await createTestApi({ startBackground: false });
  owner = await t.createUser();
  stranger = await t.createUser();
  assistant = await createAssistant(t, owner, {
    timezone: 'Europe/Berlin',
    post_call_schema: [
      { name: 'appointment_booked', type: 'bool', description: 'Booked?' },
      { name: 'notes', type: 'string', description: 'Notes' },
    ],
  });
});
afterAll(async () => t.close());

const create = async (user: TestUser, body: Record<string, unknown> = {}) => {
  const res = await t.http
    .post('/api/user/campaigns')
    .set(user.auth)
    .send({ name: 'Demo', assistant_id: assistant, ...body });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data as { id: number };
};
const addLead = (user: TestUser, campaignId: number, phone = '+14155551234') =>
  t.http.post('/api/user/lead').set(user.auth).send({ campaign_id: campaignId, phone_number: phone });

describe('create', () => {
  it("answers 201 with the draft campaign, the documented defaults and the assistant's time zone", async () => {
    const res = await t.http
      .post('/api/user/campaigns')
      .set(owner.auth)
      .send({ name: 'Product Demo Campaign', assistant_id: String(assistant) });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 201,
      body: {
        message: 'Campaign created successfully',
        data: {
          id: expect.any(Number),
          name: 'Product Demo Campaign',
          status: 'draft',
          max_calls_in_parallel: 3,
          mark_complete_when_no_leads: true,
          allowed_hours_start_time: '00:00:00',
          allowed_hours_end_time: '23:59:00',
          allowed_days: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'],
          max_retries: 3,
          retry_interval: 60,
          created_at: expect.stringMatching(ISO),
          updated_at: expect.stringMatching(ISO),
          assistant_id: assistant,
          timezone: 'Europe/Berlin',
          retry_on_voicemail: false,
          retry_on_goal_incomplete: false,
          goal_completion_variable: null,
          phone_number_ids: [],
          window_in_lead_timezone: false,
          stop_reason: null,
          started_at: null,
          completed_at: null,
          leads_count: 0,
        },
      },
    });
  });

  it('takes every field, in any case and with seconds, and the singular alias', async () => {
    const res = await t.http
      .post('/api/user/campaign')
      .set(owner.auth)
      .send({
        name: 'Full',
        assistant_id: assistant,
        timezone: 'america/new_york',
        max_calls_in_parallel: 5,
        mark_complete_when_no_leads: false,
        allowed_hours_start_time: '09:00',
        allowed_hours_end_time: '17:30:00',
        allowed_days: ['Friday', 'MONDAY', 'monday'],
        max_retries: 5,
        retry_interval: 10,
        retry_on_voicemail: true,
        retry_on_goal_incomplete: true,
        goal_completion_variable: 'appointment_booked',
      });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      timezone: 'America/New_York',
      max_calls_in_parallel: 5,
      mark_complete_when_no_leads: false,
      allowed_hours_start_time: '09:00:00',
      allowed_hours_end_time: '17:30:00',
      allowed_days: ['monday', 'friday'],
      max_retries: 5,
      retry_interval: 10,
      retry_on_voicemail: true,
      retry_on_goal_incomplete: true,
      goal_completion_variable: 'appointment_booked',
    });
  });

  it.each<[Record<string, unknown>, Record<string, string[]>]>([
    [
      { name: undefined, assistant_id: undefined },
      { name: ['The name field is required.'], assistant_id: ['The assistant id field is required.'] },
    ],
    [{ name: 'x'.repeat(256) }, { name: ['The name may not be greater than 255 characters.'] }],
    [{ retry_interval: 5 }, { retry_interval: ['The retry interval must be between 10 and 4320.'] }],
    [{ max_retries: 6 }, { max_retries: ['The max retries must be between 1 and 5.'] }],
    [{ timezone: '+02:00' }, { timezone: ['The selected timezone is invalid.'] }],
    [
      { allowed_hours_start_time: '9:00' },
      { allowed_hours_start_time: ['The allowed hours start time format is invalid.'] },
    ],
    [{ allowed_days: [] }, { allowed_days: ['The allowed days must have at least 1 items.'] }],
    [{ allowed_days: 'monday' }, { allowed_days: ['The allowed days must be an array.'] }],
    [{ allowed_days: ['monday', 'funday'] }, { 'allowed_days.1': ['The selected allowed_days.1 is invalid.'] }],
    [{ retry_on_voicemail: 'maybe' }, { retry_on_voicemail: ['The retry on voicemail field must be true or false.'] }],
    [{ phone_number_ids: 'x' }, { phone_number_ids: ['The phone number ids must be an array.'] }],
    [{ phone_number_ids: [1, 1] }, { 'phone_number_ids.1': ['The phone_number_ids.1 field has a duplicate value.'] }],
    [{ phone_number_ids: [999999] }, { 'phone_number_ids.0': ['The selected phone_number_ids.0 is invalid.'] }],
    [{ max_calls_in_parallel: 11 }, { max_calls_in_parallel: ['The max calls in parallel must be between 1 and 10.'] }],
    [
      { allowed_hours_start_time: '10:00', allowed_hours_end_time: '09:00' },
      { allowed_hours_end_time: ['The allowed hours end time must be after the allowed hours start time.'] },
    ],
    [
      { retry_on_goal_incomplete: true },
      {
        goal_completion_variable: [
          'The goal completion variable field is required when retry on goal incomplete is true.',
        ],
      },
    ],
    [
      { retry_on_goal_incomplete: true, goal_completion_variable: 'notes' },
      {
        goal_completion_variable: [
          "The goal completion variable must name a boolean variable of the assistant's post-call schema.",
        ],
      },
    ],
  ])('422 for %j, storing nothing', async (fields, errors) => {
    const before = (await t.http.get('/api/user/campaigns').set(owner.auth)).body.length;
    const res = await t.http
      .post('/api/user/campaigns')
      .set(owner.auth)
      .send({ name: 'Bad', assistant_id: assistant, ...fields });
    expect({ status: res.status, body: res.body }).toEqual({ status: 422, body: { message: INVALID, errors } });
    expect((await t.http.get('/api/user/campaigns').set(owner.auth)).body).toHaveLength(before);
  });

  it("answers 404 for another account's or an inbound assistant", async () => {
    const inbound = await createAssistant(t, owner, { type: 'inbound' });
    for (const [user, id] of [
      [stranger, assistant],
      [owner, inbound],
      [owner, 99999999],
    ] as const) {
      const res = await t.http.post('/api/user/campaigns').set(user.auth).send({ name: 'X', assistant_id: id });
      expect({ status: res.status, body: res.body }).toEqual({
        status: 404,
        body: { message: 'Assistant not found or not an outbound assistant.' },
      });
    }
  });
});

it("refuses a campaign over the plan's max_campaigns with 403, and follows the plan when an operator changes it", async () => {
  const small = await t.createUser({ plan: { max_campaigns: 1 } });
  const own = await createAssistant(t, small);
  const post = () => t.http.post('/api/user/campaigns').set(small.auth).send({ name: 'P', assistant_id: own });
  expect((await post()).status).toBe(201);
  const refused = await post();
  expect({ status: refused.status, body: refused.body }).toEqual({
    status: 403,
    body: { message: 'You have reached the maximum number of campaigns allowed by your plan.' },
  });
  expect((await t.http.get('/api/user/campaigns').set(small.auth)).body).toHaveLength(1);
  const me = await t.http.get('/api/user/me').set(small.auth);
  expect(me.body.plan.max_campaigns).toBe(1);

  const raised = await t.http.put(`/api/admin/users/${small.id}/plan`).set(t.admin).send({ max_campaigns: 2 });
  expect({ status: raised.status, max: raised.body.plan?.max_campaigns }).toEqual({ status: 200, max: 2 });
  expect((await post()).status).toBe(201);
  expect((await post()).status).toBe(403);
  const over = await t.http.put(`/api/admin/users/${small.id}/plan`).set(t.admin).send({ max_campaigns: 10001 });
  expect({ status: over.status, errors: over.body.errors }).toEqual({
    status: 422,
    errors: { max_campaigns: ['The max campaigns must be between 0 and 10000.'] },
  });
  // The default plan allows 100.
  expect((await t.http.get('/api/user/me').set(owner.auth)).body.plan.max_campaigns).toBe(100);
});

describe('list, get, update, delete', () => {
  it("lists the account's campaigns as a bare array, id ascending, never another account's", async () => {
    const user = await t.createUser();
    const own = await createAssistant(t, user);
    const a = (await t.http.post('/api/user/campaigns').set(user.auth).send({ name: 'A', assistant_id: own })).body
      .data;
    const b = (await t.http.post('/api/user/campaigns').set(user.auth).send({ name: 'B', assistant_id: own })).body
      .data;
    const res = await t.http.get('/api/user/campaigns?anything=1').set(user.auth);
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: [a, b] });
    expect((await t.http.get('/api/user/campaigns').set((await t.createUser()).auth)).body).toEqual([]);
  });

  it('gets a campaign with its stats at both spellings', async () => {
    const campaign = await create(owner);
    expect((await addLead(owner, campaign.id)).status).toBe(200);
    for (const path of [`/api/user/campaign/${campaign.id}`, `/api/user/campaigns/${campaign.id}`]) {
      const res = await t.http.get(path).set(owner.auth);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ id: campaign.id, leads_count: 1 });
      expect(res.body.data.stats).toEqual({
        leads_by_status: {
          created: 1,
          scheduled: 0,
          processing: 0,
          completed: 0,
          rescheduled: 0,
          'reached-max-retries': 0,
          blacklisted: 0,
        },
        secondary_contacts: 0,
        calls_total: 0,
        calls_answered: 0,
        cost_so_far: 0,
        average_call_duration: 0,
        next_attempt_at: null,
      });
    }
  });

  it('updates only the sent fields; refuses a running campaign with 409', async () => {
    const campaign = await create(owner, { max_retries: 2 });
    const res = await t.http
      .put(`/api/user/campaigns/${campaign.id}`)
      .set(owner.auth)
      .send({ name: 'Renamed', allowed_days: ['saturday'] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      message: 'Campaign updated successfully',
      data: expect.objectContaining({ name: 'Renamed', allowed_days: ['saturday'], max_retries: 2 }),
    });
    const bad = await t.http.put(`/api/user/campaign/${campaign.id}`).set(owner.auth).send({ retry_interval: 1 });
    expect({ status: bad.status, body: bad.body }).toEqual({
      status: 422,
      body: { message: INVALID, errors: { retry_interval: ['The retry interval must be between 10 and 4320.'] } },
    });
    await addLead(owner, campaign.id);
    expect(
      (
        await t.http
          .post('/api/user/campaigns/update-status')
          .set(owner.auth)
          .send({ campaign_id: campaign.id, action: 'start' })
      ).status,
    ).toBe(200);
    const running = await t.http.put(`/api/user/campaign/${campaign.id}`).set(owner.auth).send({ name: 'Again' });
    expect({ status: running.status, body: running.body }).toEqual({
      status: 409,
      body: { message: 'Campaign is already in progress.' },
    });
  });

  it('deletes a campaign with its leads at both spellings', async () => {
    const one = await create(owner);
    const lead = (await addLead(owner, one.id)).body.data;
    const two = await create(owner);
    expect((await t.http.delete(`/api/user/campaign/${one.id}`).set(owner.auth)).body).toEqual({
      message: 'Campaign deleted successfully',
    });
    expect((await t.http.delete(`/api/user/campaigns/${two.id}`).set(owner.auth)).status).toBe(200);
    expect((await t.http.get(`/api/user/leads/${lead.id}`).set(owner.auth)).status).toBe(404);
    expect((await t.http.delete(`/api/user/campaign/${one.id}`).set(owner.auth)).body).toEqual({
      message: 'Campaign not found',
    });
  });
});

describe('caller-ID pools', () => {
  it("drops a released number from every campaign's pool, keeping the others in order", async () => {
    const [a, b] = [await purchaseNumber(t, owner), await createSipTrunk(t, owner)];
    const c = await purchaseNumber(t, owner);
    const one = await create(owner, { phone_number_ids: [a.id, b.id, c.id] });
    const two = await create(owner, { phone_number_ids: [b.id] });
    const untouched = await create(owner, { phone_number_ids: [c.id] });
    expect((await t.http.delete(`/api/user/phone-numbers/${b.id}`).set(owner.auth)).status).toBe(200);
    const pool = async (id: number) =>
      (await t.http.get(`/api/user/campaign/${id}`).set(owner.auth)).body.data.phone_number_ids;
    expect(await pool(one.id)).toEqual([a.id, c.id]);
    // An emptied pool means the assistant's own line, as a campaign created without one.
    expect(await pool(two.id)).toEqual([]);
    expect(await pool(untouched.id)).toEqual([c.id]);
  });
});

describe('start and stop', () => {
  const status = (user: TestUser, body: unknown) =>
    t.http
      .post('/api/user/campaigns/update-status')
      .set(user.auth)
      .send(body as object);

  it('starts, refuses a second start, stops, stops again', async () => {
    const campaign = await create(owner);
    await addLead(owner, campaign.id);
    expect((await status(owner, { campaign_id: String(campaign.id), action: ' START ' })).body).toEqual({
      message: 'Campaign started successfully.',
      success: true,
      data: { campaign_id: campaign.id, status: 'in-progress' },
    });
    const again = await status(owner, { campaign_id: campaign.id, action: 'start' });
    expect({ status: again.status, body: again.body }).toEqual({
      status: 400,
      body: {
        message: 'Campaign is already in progress.',
        success: false,
        data: { campaign_id: campaign.id, status: 'in-progress' },
      },
    });
    const read = (await t.http.get(`/api/user/campaign/${campaign.id}`).set(owner.auth)).body.data;
    expect(read).toMatchObject({ status: 'in-progress', started_at: expect.stringMatching(ISO), stop_reason: null });
    for (let i = 0; i < 2; i++) {
      expect((await status(owner, { campaign_id: campaign.id, action: 'stop' })).body).toEqual({
        message: 'Campaign stopped successfully.',
        success: true,
        data: { campaign_id: campaign.id, status: 'stopped' },
      });
    }
    expect((await t.http.get(`/api/user/campaign/${campaign.id}`).set(owner.auth)).body.data).toMatchObject({
      status: 'stopped',
      stop_reason: 'user',
    });
  });

  it('refuses a start with no leads and a stop of a draft', async () => {
    const campaign = await create(owner);
    const noLeads = await status(owner, { campaign_id: campaign.id, action: 'start' });
    expect({ status: noLeads.status, body: noLeads.body }).toEqual({
      status: 400,
      body: { message: 'No leads to call.', success: false, data: { campaign_id: campaign.id, status: 'draft' } },
    });
    const notRunning = await status(owner, { campaign_id: campaign.id, action: 'stop' });
    expect({ status: notRunning.status, body: notRunning.body }).toEqual({
      status: 400,
      body: {
        message: 'Campaign is not running.',
        success: false,
        data: { campaign_id: campaign.id, status: 'draft' },
      },
    });
  });

  it('refuses a start on a balance below one minute', async () => {
    const poor = await t.createUser({ balance: 0 });
    const own = await createAssistant(t, poor);
    const campaign = (await t.http.post('/api/user/campaigns').set(poor.auth).send({ name: 'P', assistant_id: own }))
      .body.data;
    await addLead(poor, campaign.id);
    const res = await status(poor, { campaign_id: campaign.id, action: 'start' });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 400,
      body: {
        message: 'Insufficient balance to start the campaign. Please top up your account.',
        success: false,
        data: { campaign_id: campaign.id, status: 'draft' },
      },
    });
  });

  it.each<[unknown, number, Record<string, unknown>]>([
    [
      {},
      422,
      {
        message: INVALID,
        success: false,
        errors: { campaign_id: ['The campaign id field is required.'], action: ['The action field is required.'] },
      },
    ],
    [
      { campaign_id: 'abc', action: 'start' },
      422,
      { message: INVALID, success: false, errors: { campaign_id: ['The campaign id must be an integer.'] } },
    ],
    [
      { campaign_id: 1, action: 5 },
      422,
      { message: INVALID, success: false, errors: { action: ['The action must be a string.'] } },
    ],
    [
      { campaign_id: 1, action: 'pause' },
      400,
      { message: "Invalid action. Must be either 'start' or 'stop'.", success: false },
    ],
    [{ campaign_id: 99999999, action: 'start' }, 404, { message: 'Campaign not found.', success: false }],
  ])('answers %j with %i', async (body, code, answer) => {
    const res = await status(owner, body);
    expect({ status: res.status, body: res.body }).toEqual({ status: code, body: answer });
  });

  it('GET on the literal path is 405 with Allow: POST', async () => {
    const res = await t.http.get('/api/user/campaigns/update-status').set(owner.auth);
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('POST');
  });
});

describe('another account', () => {
  it("finds none of the owner's campaigns on any route", async () => {
    const campaign = await create(owner);
    const lead = (await addLead(owner, campaign.id, '+14155559876')).body.data;
    const notFound = { message: 'Campaign not found' };
    for (const path of [`/api/user/campaign/${campaign.id}`, `/api/user/campaigns/${campaign.id}`]) {
      expect((await t.http.get(path).set(stranger.auth)).body).toEqual(notFound);
      expect((await t.http.put(path).set(stranger.auth).send({ name: 'Mine' })).body).toEqual(notFound);
      expect((await t.http.put(path).set(stranger.auth).send({ retry_interval: 1 })).status).toBe(404);
      expect((await t.http.delete(path).set(stranger.auth)).body).toEqual(notFound);
    }
    const start = await t.http
      .post('/api/user/campaigns/update-status')
      .set(stranger.auth)
      .send({ campaign_id: campaign.id, action: 'start' });
    expect({ status: start.status, body: start.body }).toEqual({
      status: 404,
      body: { message: 'Campaign not found.', success: false },
    });
    const leadAdd = await addLead(stranger, campaign.id);
    expect({ status: leadAdd.status, body: leadAdd.body }).toEqual({
      status: 422,
      body: { message: INVALID, errors: { campaign_id: ['The selected campaign id is invalid.'] } },
    });
    expect((await t.http.get('/api/user/campaigns').set(stranger.auth)).body).toEqual([]);
    expect((await t.http.get(`/api/user/leads?campaign_id=${campaign.id}`).set(stranger.auth)).body.data).toEqual([]);
    for (const path of [`/api/user/leads/${lead.id}`, `/api/user/lead/${lead.id}`]) {
      expect((await t.http.get(path).set(stranger.auth)).body).toEqual({ message: 'Lead not found' });
      expect((await t.http.delete(path).set(stranger.auth)).body).toEqual({ message: 'Lead not found' });
    }
    for (const req of [
      t.http.put(`/api/user/leads/${lead.id}`),
      t.http.put(`/api/leads/${lead.id}`),
      t.http.patch(`/api/user/leads/${lead.id}`),
    ]) {
      const res = await req.set(stranger.auth).send({ status: 'completed' });
      expect({ status: res.status, body: res.body }).toEqual({ status: 404, body: { message: 'Lead not found' } });
    }
    expect((await t.http.get(`/api/user/campaign/${campaign.id}`).set(owner.auth)).body.data).toMatchObject({
      name: 'Demo',
      leads_count: 1,
    });
  });
});
