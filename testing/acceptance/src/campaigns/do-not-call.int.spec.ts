import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';
import { createAssistant, ISO, makeCall } from '@voiceplane/stand-ins/calls/fixtures';

/**
 * The do-not-call list through the composed app: its routes, and every call the platform places
 * itself obeying it (make_call, leads and the dialer, the runtime's opt-out of a call's customer).
 */

const INVALID = 'The given data was invalid.';
const LISTED = '+4915112345678';
let t: TestApi;
let owner: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  t = await createTestApi({ startBackground: false });
  owner = await t.createUser();
  stranger = await t.createUser();
});
afterAll(async () => t.close());

const add = (user: TestUser, body: object) => t.http.post('/api/user/do-not-call').set(user.auth).send(body);
const list = (user: TestUser, query = '') => t.http.get(`/api/user/do-not-call${query}`).set(user.auth);

describe('routes', () => {
  it('adds a number normalised to E.164, counts one already listed as not added, and lists it for its account only', async () => {
    const first = await add(owner, { phone_number: '0049 151 1234-5678', reason: 'asked not to be called' });
    expect({ status: first.status, body: first.body }).toEqual({
      status: 201,
      body: { message: 'Added to the do-not-call list.', added: 1 },
    });
    expect((await add(owner, { phone_number: LISTED })).body).toEqual({
      message: 'Added to the do-not-call list.',
      added: 0,
    });
    const listed = await list(owner, `?phone_number=${encodeURIComponent(LISTED)}`);
    expect({ status: listed.status, body: listed.body }).toEqual({
      status: 200,
      body: {
        data: [
          {
            id: expect.any(Number),
            phone_number: LISTED,
            reason: 'asked not to be called',
            created_at: expect.stringMatching(ISO),
          },
        ],
        next_cursor: null,
        prev_cursor: null,
        per_page: 15,
      },
    });
    expect((await list(stranger)).body.data).toEqual([]);
  });

  it('adds up to 1,000 numbers at once, each once, and pages them newest first by cursor', async () => {
    const user = await t.createUser();
    const numbers = ['+14155550101', '+14155550102', '+14155550103', '+14155550101'];
    expect((await add(user, { phone_numbers: numbers, reason: 'import' })).body.added).toBe(3);
    expect((await add(user, { phone_numbers: ['+14155550103', '+14155550104'] })).body.added).toBe(1);
    const one = await list(user, '?per_page=3');
    expect(one.body.data.map((e: { phone_number: string }) => e.phone_number)).toEqual([
      '+14155550104',
      '+14155550103',
      '+14155550102',
    ]);
    expect(one.body.next_cursor).toEqual(expect.any(String));
    const two = await list(user, `?per_page=3&cursor=${one.body.next_cursor}`);
    expect({
      numbers: two.body.data.map((e: { phone_number: string }) => e.phone_number),
      next: two.body.next_cursor,
    }).toEqual({
      numbers: ['+14155550101'],
      next: null,
    });
  });

  it.each([
    [{}, { phone_number: ['The phone number field is required.'] }],
    [{ phone_number: '12345' }, { phone_number: ['The phone number must be a valid E.164 phone number.'] }],
    [
      { phone_numbers: ['+14155550101', 'call me'] },
      { 'phone_numbers.1': ['The phone_numbers.1 must be a valid E.164 phone number.'] },
    ],
    [{ phone_numbers: 'x' }, { phone_numbers: ['The phone numbers must be an array.'] }],
    [
      { phone_numbers: Array.from({ length: 1001 }, (_, i) => `+1415555${String(i).padStart(4, '0')}`) },
      { phone_numbers: ['The phone numbers may not have more than 1000 items.'] },
    ],
    [
      { phone_number: LISTED, reason: 'x'.repeat(256) },
      { reason: ['The reason may not be greater than 255 characters.'] },
    ],
  ])('refuses %j with 422 and adds nothing', async (body, errors) => {
    const user = await t.createUser();
    const res = await add(user, body);
    expect({ status: res.status, body: res.body }).toEqual({ status: 422, body: { message: INVALID, errors } });
    expect((await list(user)).body.data).toEqual([]);
  });

  it('refuses a bad cursor, an unknown filter and a bad number filter with 422', async () => {
    expect((await list(owner, '?cursor=nope')).body).toEqual({
      message: INVALID,
      errors: { cursor: ['The selected cursor is invalid.'] },
    });
    expect((await list(owner, '?phone=1')).status).toBe(422);
    expect((await list(owner, '?phone_number=abc')).status).toBe(422);
  });

  it("removes its own entry; another account's or a missing one is not found", async () => {
    const user = await t.createUser();
    await add(user, { phone_number: '+14155550199' });
    const [entry] = (await list(user)).body.data;
    expect((await t.http.delete(`/api/user/do-not-call/${entry.id}`).set(stranger.auth)).body).toEqual({
      message: 'Not found.',
    });
    const removed = await t.http.delete(`/api/user/do-not-call/${entry.id}`).set(user.auth);
    expect({ status: removed.status, body: removed.body }).toEqual({
      status: 200,
      body: { message: 'Removed from the do-not-call list.' },
    });
    expect((await t.http.delete(`/api/user/do-not-call/${entry.id}`).set(user.auth)).status).toBe(404);
    expect((await t.http.delete('/api/user/do-not-call/abc').set(user.auth)).status).toBe(404);
  });
});

describe('calls the platform places', () => {
  it("make_call refuses a listed number with 422; another account's list does not count", async () => {
    const user = await t.createUser();
    const assistant = await createAssistant(t, user);
    await add(user, { phone_number: '+14155550777' });
    const refused = await t.http
      .post('/api/user/make_call')
      .set(user.auth)
      .send({ assistant_id: assistant, phone_number: '+14155550777' });
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 422,
      body: { message: 'The phone number is on the do-not-call list.' },
    });
    expect((await t.http.get('/api/user/calls').set(user.auth)).body.total).toBe(0);
    const theirs = await createAssistant(t, stranger);
    expect(await makeCall(t, stranger, theirs, '+14155550777')).toEqual(expect.any(Number));
  });

  it('the runtime lists the customer of a call that asked not to be called again; the next make_call is refused', async () => {
    const user = await t.createUser();
    const assistant = await createAssistant(t, user);
    const callId = await makeCall(t, user, assistant, '+14155550888');
    const res = await t.http.post(`/api/runtime/calls/${callId}/do-not-call`).set(t.runtimeAuth).send();
    expect({ status: res.status, body: res.body }).toEqual({
      status: 200,
      body: { message: 'Added to the do-not-call list.', added: 1 },
    });
    expect((await t.http.post(`/api/runtime/calls/${callId}/do-not-call`).set(t.runtimeAuth).send()).body.added).toBe(
      0,
    );
    expect((await list(user)).body.data).toEqual([
      expect.objectContaining({ phone_number: '+14155550888', reason: 'asked not to be called' }),
    ]);
    const again = await t.http
      .post('/api/user/make_call')
      .set(user.auth)
      .send({ assistant_id: assistant, phone_number: '+14155550888' });
    expect(again.status).toBe(422);
    expect((await t.http.post('/api/runtime/calls/99999999/do-not-call').set(t.runtimeAuth).send()).status).toBe(404);
  });
});

describe('leads and the dialer', () => {
  async function campaignOf(user: TestUser, fields: Record<string, unknown> = {}) {
    const assistant = await createAssistant(t, user);
    const res = await t.http
      .post('/api/user/campaigns')
      .set(user.auth)
      .send({ name: 'DNC', assistant_id: assistant, ...fields });
    return res.body.data.id as number;
  }
  const lead = (user: TestUser, body: Record<string, unknown>) =>
    t.http.post('/api/user/lead').set(user.auth).send(body);

  it('stores a lead or secondary contact with a listed number as blacklisted, and counts listed rows of an import apart', async () => {
    const user = await t.createUser();
    await add(user, { phone_numbers: ['+14155550301', '+14155550302'] });
    const campaign = await campaignOf(user);
    const created = await lead(user, {
      campaign_id: campaign,
      phone_number: '+14155550300',
      secondary_contacts: [{ phone_number: '+14155550301' }],
    });
    expect(created.body.data).toMatchObject({
      status: 'created',
      secondary_contacts: [{ phone_number: '+14155550301', status: 'blacklisted' }],
    });
    expect((await lead(user, { campaign_id: campaign, phone_number: '+14155550302' })).body.data.status).toBe(
      'blacklisted',
    );
    const imported = await t.http
      .post(`/api/user/campaign/${campaign}/leads/import`)
      .set(user.auth)
      .send({ leads: [{ phone_number: '+14155550310' }, { phone_number: '+14155550301' }] });
    expect(imported.body).toMatchObject({ accepted: 1, duplicates: 0, do_not_call: 1, invalid_count: 0 });
    const blacklisted = await t.http.get(`/api/user/leads?campaign_id=${campaign}&status=blacklisted`).set(user.auth);
    expect(blacklisted.body.data.map((l: { phone_number: string }) => l.phone_number).sort()).toEqual([
      '+14155550301',
      '+14155550302',
    ]);
    // An update to a listed number closes that contact alone.
    const updated = await t.http
      .put(`/api/user/leads/${created.body.data.id}`)
      .set(user.auth)
      .send({ phone_number: '+14155550302' });
    expect(updated.status).toBe(200);
    expect((await t.http.get(`/api/user/leads/${created.body.data.id}`).set(user.auth)).body.data.status).toBe(
      'blacklisted',
    );
  });

  it('never dials a number listed after its lead was added: the contact becomes blacklisted, its secondary contact is called instead', async () => {
    const user = await t.createUser();
    const campaign = await campaignOf(user, { max_calls_in_parallel: 3 });
    const primary = (
      await lead(user, {
        campaign_id: campaign,
        phone_number: '+14155550401',
        secondary_contacts: [{ phone_number: '+14155550402' }],
      })
    ).body.data;
    const plain = (await lead(user, { campaign_id: campaign, phone_number: '+14155550403' })).body.data;
    const other = (await lead(user, { campaign_id: campaign, phone_number: '+14155550404' })).body.data;
    await add(user, { phone_numbers: ['+14155550401', '+14155550403'] });
    const started = await t.http
      .post('/api/user/campaigns/update-status')
      .set(user.auth)
      .send({ campaign_id: campaign, action: 'start' });
    expect(started.status).toBe(200);
    const tick = async () =>
      (await t.http.post(`/api/sandbox/campaigns/${campaign}/tick`).set(user.auth).send({})).body.placed as number[];
    const placed = [...(await tick()), ...(await tick())];
    const calls = (await t.http.get(`/api/user/calls?campaign_id=${campaign}`).set(user.auth)).body.data as Array<{
      id: number;
      customer_phone: string;
    }>;
    expect(calls.map((c) => c.customer_phone).sort()).toEqual(['+14155550402', '+14155550404']);
    expect(placed).toHaveLength(2);
    const read = async (id: number) => (await t.http.get(`/api/user/leads/${id}`).set(user.auth)).body.data;
    expect(await read(primary.id)).toMatchObject({
      status: 'blacklisted',
      attempts: 0,
      secondary_contacts: [{ status: 'processing' }],
    });
    expect(await read(plain.id)).toMatchObject({ status: 'blacklisted', attempts: 0, last_call_id: null });
    expect((await read(other.id)).status).toBe('processing');
    for (const call of calls)
      await t.http.post(`/api/sandbox/calls/${call.id}/finish`).set(user.auth).send({ status: 'completed' });
    await tick();
    const done = (await t.http.get(`/api/user/campaign/${campaign}`).set(user.auth)).body.data;
    expect(done).toMatchObject({ status: 'completed', stats: { leads_by_status: { blacklisted: 2, completed: 1 } } });
  });
});
