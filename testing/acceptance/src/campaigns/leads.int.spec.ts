import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';
import { createAssistant, ISO } from '@voiceplane/stand-ins/calls/fixtures';

/** Lead routes through the composed app: create with secondary contacts, the filtered list, update, delete. */

const INVALID = 'The given data was invalid.';
let t: TestApi;
let owner: TestUser;
let campaign: { id: number; name: string };
let other: { id: number };

beforeAll(async () => {
  t = await createTestApi({ startBackground: false });
  owner = await t.createUser();
  const assistant = await createAssistant(t, owner);
  campaign = (await t.http.post('/api/user/campaigns').set(owner.auth).send({ name: 'Leads', assistant_id: assistant }))
    .body.data;
  other = (await t.http.post('/api/user/campaigns').set(owner.auth).send({ name: 'Other', assistant_id: assistant }))
    .body.data;
});
afterAll(async () => t.close());

const post = (body: Record<string, unknown>, path = '/api/user/lead') =>
  t.http
    .post(path)
    .set(owner.auth)
    .send({ campaign_id: campaign.id, ...body });

describe('create', () => {
  it('answers 200 with the lead, its campaign and its secondary contacts in order (the exact body of the MCP tool)', async () => {
    const res = await post({
      phone_number: '+1 (415) 555-1234',
      variables: { customer_name: 'John Doe', seats: 3 },
      allow_dupplicate: false,
      secondary_contacts: [
        { phone_number: '0044 20 7946 0958', variables: { customer_name: 'Jane' } },
        { phone_number: '+14155551236' },
      ],
    });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 200,
      body: {
        message: 'Lead created successfully',
        data: {
          id: expect.any(Number),
          campaign_id: campaign.id,
          phone_number: '+14155551234',
          variables: { customer_name: 'John Doe', seats: '3' },
          status: 'created',
          created_at: expect.stringMatching(ISO),
          updated_at: expect.stringMatching(ISO),
          campaign: { id: campaign.id, name: 'Leads' },
          secondary_contacts: [
            {
              id: expect.any(Number),
              phone_number: '+442079460958',
              variables: { customer_name: 'Jane' },
              status: 'created',
              created_at: expect.stringMatching(ISO),
              updated_at: expect.stringMatching(ISO),
              attempts: 0,
              last_call_id: null,
              timezone_used: 'UTC',
            },
            {
              id: expect.any(Number),
              phone_number: '+14155551236',
              variables: {},
              status: 'created',
              created_at: expect.stringMatching(ISO),
              updated_at: expect.stringMatching(ISO),
              attempts: 0,
              last_call_id: null,
              timezone_used: 'UTC',
            },
          ],
          attempts: 0,
          next_attempt_at: null,
          last_call_id: null,
          primary_lead_id: null,
          timezone_used: 'UTC',
        },
      },
    });
    const secondary = await t.http.get(`/api/user/lead/${res.body.data.secondary_contacts[0].id}`).set(owner.auth);
    expect(secondary.body.data).toMatchObject({
      primary_lead_id: res.body.data.id,
      secondary_contacts: [],
      campaign_id: campaign.id,
    });
  });

  it('merges variables sent as an array of objects; the plural alias creates too', async () => {
    const res = await post(
      { phone_number: '+14155550100', variables: [{ a: '1' }, { b: '2', a: '3' }] },
      '/api/user/leads',
    );
    expect(res.status).toBe(200);
    expect(res.body.data.variables).toEqual({ a: '3', b: '2' });
  });

  it('refuses a duplicate number in the same campaign unless allowed; other campaigns do not count', async () => {
    expect((await post({ phone_number: '+14155550200' })).status).toBe(200);
    const dup = await post({ phone_number: '+1 415 555 0200' });
    expect({ status: dup.status, body: dup.body }).toEqual({
      status: 422,
      body: { message: INVALID, errors: { phone_number: ['The phone number has already been taken.'] } },
    });
    expect((await post({ phone_number: '+14155550200', allow_dupplicate: true })).status).toBe(200);
    expect((await post({ phone_number: '+14155550200', allow_duplicate: true })).status).toBe(200);
    expect((await post({ phone_number: '+14155550200', allow_dupplicate: false, allow_duplicate: true })).status).toBe(
      422,
    );
    expect((await post({ phone_number: '+14155550200', campaign_id: other.id })).status).toBe(200);
  });

  it.each<[Record<string, unknown>, Record<string, string[]>]>([
    [
      { phone_number: undefined, campaign_id: undefined },
      { phone_number: ['The phone number field is required.'], campaign_id: ['The campaign id field is required.'] },
    ],
    [{ phone_number: '4155551234' }, { phone_number: ['The phone number must be a valid E.164 phone number.'] }],
    [
      { phone_number: "=cmd|' /C calc'!A0" },
      { phone_number: ['The phone number must be a valid E.164 phone number.'] },
    ],
    [
      { phone_number: '+14155551299', campaign_id: 99999999 },
      { campaign_id: ['The selected campaign id is invalid.'] },
    ],
    [{ phone_number: '+14155551299', variables: 'x' }, { variables: ['The variables must be an object.'] }],
    [{ phone_number: '+14155551299', variables: [1] }, { variables: ['The variables must be an object.'] }],
    [
      {
        phone_number: '+14155551299',
        variables: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])),
      },
      { variables: ['The variables may not have more than 50 items.'] },
    ],
    [
      { phone_number: '+14155551299', variables: { notes: 'x'.repeat(1001) } },
      { 'variables.notes': ['The variables.notes may not be greater than 1000 characters.'] },
    ],
    [
      { phone_number: '+14155551299', allow_dupplicate: 'perhaps' },
      { allow_dupplicate: ['The allow dupplicate field must be true or false.'] },
    ],
    [
      {
        phone_number: '+14155551299',
        secondary_contacts: Array.from({ length: 11 }, (_, i) => ({ phone_number: `+1415555130${i}` })),
      },
      { secondary_contacts: ['The secondary contacts may not have more than 10 items.'] },
    ],
    [
      { phone_number: '+14155551299', secondary_contacts: [{}] },
      { 'secondary_contacts.0.phone_number': ['The secondary_contacts.0.phone_number field is required.'] },
    ],
    [
      { phone_number: '+14155551299', secondary_contacts: [{ phone_number: '+14155551299' }] },
      {
        'secondary_contacts.0.phone_number': [
          'The secondary_contacts.0.phone_number and phone number must be different.',
        ],
      },
    ],
    [
      {
        phone_number: '+14155551299',
        secondary_contacts: [{ phone_number: '+14155551300' }, { phone_number: '+14155551300' }],
      },
      { 'secondary_contacts.1.phone_number': ['The secondary_contacts.1.phone_number field has a duplicate value.'] },
    ],
    [
      { phone_number: '+14155551299', secondary_contacts: [{ phone_number: 'abc' }] },
      {
        'secondary_contacts.0.phone_number': [
          'The secondary_contacts.0.phone_number must be a valid E.164 phone number.',
        ],
      },
    ],
  ])('422 for %j', async (fields, errors) => {
    const res = await post(fields);
    expect({ status: res.status, body: res.body }).toEqual({ status: 422, body: { message: INVALID, errors } });
  });
});

describe('list', () => {
  it('pages primaries newest first and filters by campaign, status, phone part and day', async () => {
    const user = await t.createUser();
    const assistant = await createAssistant(t, user);
    const mine = (await t.http.post('/api/user/campaigns').set(user.auth).send({ name: 'L', assistant_id: assistant }))
      .body.data;
    const ids: number[] = [];
    for (const phone of ['+14155550001', '+14155550002', '+4915123456789']) {
      ids.push(
        (
          await t.http
            .post('/api/user/lead')
            .set(user.auth)
            .send({
              campaign_id: mine.id,
              phone_number: phone,
              secondary_contacts: phone.startsWith('+49') ? [{ phone_number: '+4930123456' }] : [],
            })
        ).body.data.id,
      );
    }
    const list = async (query: string) => t.http.get(`/api/user/leads${query}`).set(user.auth);
    const all = await list('');
    expect({
      status: all.status,
      ids: all.body.data.map((l: { id: number }) => l.id),
      total: all.body.total,
      per_page: all.body.per_page,
    }).toEqual({ status: 200, ids: [...ids].reverse(), total: 3, per_page: 15 });
    expect((await list('?per_page=1&page=2')).body).toMatchObject({
      current_page: 2,
      per_page: 1,
      total: 3,
      last_page: 3,
      data: [{ id: ids[1] }],
    });
    expect((await list('?phone_number=(30) 123-4')).body.data.map((l: { id: number }) => l.id)).toEqual([ids[2]]);
    expect((await list(`?campaign_id=${mine.id}&status=created`)).body.total).toBe(3);
    expect((await list('?status=completed')).body.total).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    expect((await list(`?date_from=${today}&date_to=${today}`)).body.total).toBe(3);
    expect((await list('?date_to=2000-01-01')).body.total).toBe(0);
  });

  it.each<[string, Record<string, string[]>]>([
    ['?status=contacted', { status: ['The selected status is invalid.'] }],
    ['?campaign_id=abc', { campaign_id: ['The campaign id must be an integer.'] }],
    ['?date_from=2026-02-30', { date_from: ['The date from format is invalid.'] }],
    ['?date_from=2026-03-02&date_to=2026-03-01', { date_to: ['The date to must be after or equal to the date from.'] }],
    ['?per_page=101', { per_page: ['The per page must be between 1 and 100.'] }],
    ['?campain_id=1', { campain_id: ['The campain id parameter is not supported.'] }],
  ])('422 for %s', async (query, errors) => {
    const res = await t.http.get(`/api/user/leads${query}`).set(owner.auth);
    expect({ status: res.status, body: res.body }).toEqual({ status: 422, body: { message: INVALID, errors } });
  });
});

describe('update and delete', () => {
  const lead = async (phone: string, secondary?: string) =>
    (await post({ phone_number: phone, ...(secondary ? { secondary_contacts: [{ phone_number: secondary }] } : {}) }))
      .body.data;

  it('updates at all three paths; variables merge and null removes a key; status applies to the group', async () => {
    const l = (
      await post({
        phone_number: '+14155552000',
        variables: { a: '1', b: '2' },
        secondary_contacts: [{ phone_number: '+14155552001' }],
      })
    ).body.data;
    const put = await t.http
      .put(`/api/leads/${l.id}`)
      .set(owner.auth)
      .send({ variables: { b: null, c: 3 }, phone_number: '+1 415 555 2002', secondary_contacts: 'ignored' });
    expect({ status: put.status, body: put.body }).toEqual({
      status: 200,
      body: { message: 'Lead successfully updated' },
    });
    expect((await t.http.patch(`/api/user/leads/${l.id}`).set(owner.auth).send({ status: 'completed' })).status).toBe(
      200,
    );
    const read = (await t.http.get(`/api/user/leads/${l.id}`).set(owner.auth)).body.data;
    expect(read).toMatchObject({
      phone_number: '+14155552002',
      variables: { a: '1', c: '3' },
      status: 'completed',
      secondary_contacts: [{ status: 'completed' }],
    });
    expect(read.variables).not.toHaveProperty('b');
    expect((await t.http.put(`/api/user/leads/${l.id}`).set(owner.auth).send({ campaign_id: other.id })).status).toBe(
      200,
    );
    const moved = (await t.http.get(`/api/user/leads/${l.id}`).set(owner.auth)).body.data;
    expect(moved).toMatchObject({
      campaign_id: other.id,
      status: 'created',
      secondary_contacts: [{ status: 'created' }],
    });
  });

  it.each<[Record<string, unknown>, Record<string, string[]>]>([
    [{ status: 'processing' }, { status: ['The selected status is invalid.'] }],
    [{ status: 'blacklisted' }, { status: ['The selected status is invalid.'] }],
    [{ phone_number: '12' }, { phone_number: ['The phone number must be a valid E.164 phone number.'] }],
    [{ campaign_id: 99999999 }, { campaign_id: ['The selected campaign id is invalid.'] }],
    [{ variables: 'x' }, { variables: ['The variables must be an object.'] }],
  ])('update 422 for %j, changing nothing', async (body, errors) => {
    const l = await lead(`+1415555${String(3000 + Math.floor(Math.random() * 6000))}`);
    const res = await t.http.put(`/api/user/leads/${l.id}`).set(owner.auth).send(body);
    expect({ status: res.status, body: res.body }).toEqual({ status: 422, body: { message: INVALID, errors } });
    expect((await t.http.get(`/api/user/leads/${l.id}`).set(owner.auth)).body.data).toEqual(l);
  });

  it('refuses to move a secondary contact to another campaign', async () => {
    const l = await lead('+14155554000', '+14155554001');
    const res = await t.http
      .put(`/api/user/leads/${l.secondary_contacts[0].id}`)
      .set(owner.auth)
      .send({ campaign_id: other.id });
    expect(res.body).toEqual({
      message: INVALID,
      errors: { campaign_id: ['The campaign id cannot be changed on a secondary contact.'] },
    });
  });

  it('deletes a primary with its contacts, and a secondary alone, at both paths', async () => {
    const l = await lead('+14155555000', '+14155555001');
    const s = await lead('+14155555100', '+14155555101');
    expect((await t.http.delete(`/api/user/lead/${s.secondary_contacts[0].id}`).set(owner.auth)).body).toEqual({
      message: 'Lead deleted successfully',
    });
    expect((await t.http.get(`/api/user/leads/${s.id}`).set(owner.auth)).body.data.secondary_contacts).toEqual([]);
    expect((await t.http.delete(`/api/user/leads/${l.id}`).set(owner.auth)).status).toBe(200);
    expect((await t.http.get(`/api/user/leads/${l.secondary_contacts[0].id}`).set(owner.auth)).body).toEqual({
      message: 'Lead not found',
    });
    expect((await t.http.delete(`/api/user/leads/${l.id}`).set(owner.auth)).status).toBe(404);
  });

  it('path ids of the wrong shape are not found', async () => {
    for (const id of ['abc', '0', '12345678901234567890123', '%ff']) {
      expect((await t.http.get(`/api/user/leads/${id}`).set(owner.auth)).status).toBe(404);
      expect((await t.http.get(`/api/user/campaign/${id}`).set(owner.auth)).status).toBe(404);
    }
  });
});
