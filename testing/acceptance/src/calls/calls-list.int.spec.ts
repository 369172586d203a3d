import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';
import { createAssistant, CUSTOMER, getCall, makeCall } from '@voiceplane/stand-ins/calls/fixtures';

/** `GET /api/user/calls` and `/calls/{id}`. */

const INVALID = 'The given data was invalid.';
const NOT_FOUND = { message: 'Call not found' };

let t: TestApi;
let owner: TestUser;
let stranger: TestUser;
let first: number;
let second: number;
const calls: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApi({ startBackground: false });
  owner = await t.createUser();
  stranger = await t.createUser();
  first = await createAssistant(t, owner, { name: 'First' });
  second = await createAssistant(t, owner, { name: 'Second' });
  calls.ringing = await makeCall(t, owner, first, CUSTOMER);
  calls.busy = await makeCall(t, owner, first, '+15005550001');
  calls.other = await makeCall(t, owner, second, '+14155550199');
  await makeCall(t, stranger, await createAssistant(t, stranger), CUSTOMER);
});
afterAll(async () => t.close());

const list = (query = '', user = owner) => t.http.get(`/api/user/calls${query}`).set(user.auth);
const ids = (res: { body: { data: Array<{ id: number }> } }) => res.body.data.map((c) => c.id);

describe('GET /api/user/calls', () => {
  it("pages the caller's own calls newest first, without transcript and tool calls", async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect({ ...res.body, data: ids(res) }).toEqual({
      data: [calls.other, calls.busy, calls.ringing],
      current_page: 1,
      per_page: 15,
      total: 3,
      last_page: 1,
    });
    const full = await getCall(t, owner, calls.other);
    const { transcript: _t, transcript_items: _i, tool_calls: _c, ...summary } = full;
    expect(res.body.data[0]).toEqual(summary);
    expect(Object.keys(res.body.data[0])).toEqual([
      'id',
      'assistant_id',
      'direction',
      'channel',
      'status',
      'customer_phone',
      'assistant_phone',
      'phone_number_id',
      'sender_id',
      'conversation_id',
      'automation_run_id',
      'variables',
      'extracted_variables',
      'duration',
      'cost',
      'recording_url',
      'ended_reason',
      'campaign_id',
      'lead_id',
      'created_at',
      'answered_at',
      'finished_at',
      'updated_at',
    ]);
    const page2 = await list('?per_page=2&page=2');
    expect({ ...page2.body, data: ids(page2) }).toEqual({
      data: [calls.ringing],
      current_page: 2,
      per_page: 2,
      total: 3,
      last_page: 2,
    });
    const past = await list('?page=9');
    expect({ ...past.body, data: ids(past) }).toEqual({
      data: [],
      current_page: 9,
      per_page: 15,
      total: 3,
      last_page: 1,
    });
  });

  it.each([
    ['assistant', () => `?assistant_id=${first}`, () => [calls.busy, calls.ringing]],
    ['status', () => '?status=busy', () => [calls.busy]],
    ['direction', () => '?direction=outbound', () => [calls.other, calls.busy, calls.ringing]],
    ['inbound direction', () => '?direction=inbound', () => []],
    ['channel', () => '?channel=chatapp', () => []],
    ['customer phone (+ decoded as +)', () => '?customer_phone=+14155550199', () => [calls.other]],
    ['customer phone (percent-encoded)', () => '?customer_phone=%2B14155551234', () => [calls.ringing]],
    ['created from', () => '?from=2000-01-01T00:00:00Z', () => [calls.other, calls.busy, calls.ringing]],
    ['created to', () => '?to=2000-01-01', () => []],
    [
      'combined',
      () => `?assistant_id=${first}&status=ringing&from=2000-01-01T00:00:00.000%2B02:00`,
      () => [calls.ringing],
    ],
    // Famulor's names, as its reference documents them (the MCP server's list_calls sends assistant_id, page, per_page).
    ['Famulor type', () => '?type=outbound', () => [calls.other, calls.busy, calls.ringing]],
    ['Famulor type inbound', () => '?type=inbound', () => []],
    ['Famulor type web (voiceplane has no web calls)', () => '?type=web', () => []],
    ['Famulor phone_number', () => '?phone_number=%2B14155550199', () => [calls.other]],
    [
      'Famulor date_from today',
      () => `?date_from=${new Date().toISOString().slice(0, 10)}`,
      () => [calls.other, calls.busy, calls.ringing],
    ],
    [
      'Famulor date_to today (the whole day)',
      () => `?date_to=${new Date().toISOString().slice(0, 10)}`,
      () => [calls.other, calls.busy, calls.ringing],
    ],
    [
      'Famulor date_to yesterday',
      () => `?date_to=${new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)}`,
      () => [],
    ],
    [
      'Famulor date_from tomorrow',
      () => `?date_from=${new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)}`,
      () => [],
    ],
    [
      'both names agreeing',
      () => '?type=outbound&direction=outbound&phone_number=%2B14155550199&customer_phone=%2B14155550199',
      () => [calls.other],
    ],
    ['MCP list_calls', () => `?assistant_id=${second}&page=1&per_page=10`, () => [calls.other]],
  ])('filters by %s', async (_name, query, expected) => {
    const res = await list(query());
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual(expected());
  });

  it.each<[string, Record<string, string[]>]>([
    ['?type=inbound&direction=outbound', { type: ['The type must match the direction.'] }],
    [
      '?phone_number=%2B14155550199&customer_phone=%2B14155551234',
      { phone_number: ['The phone number must match the customer phone.'] },
    ],
    [
      '?type=phone&date_from=01.03.2026&date_to=2026-13-01',
      {
        type: ['The selected type is invalid.'],
        date_from: ['The date from does not match the format Y-m-d.'],
        date_to: ['The date to must be a valid date.'],
      },
    ],
    ['?campain_id=4', { campain_id: ['The campain id parameter is not supported.'] }],
  ])('422 for Famulor filters %s', async (query, errors) => {
    const res = await list(query);
    expect({ status: res.status, body: res.body }).toEqual({ status: 422, body: { message: INVALID, errors } });
  });

  it("another account's assistant id filters to nothing", async () => {
    const res = await list(`?assistant_id=${first}`, stranger);
    expect([res.status, res.body.total]).toEqual([200, 0]);
  });

  it('422 for every invalid query value at once', async () => {
    const res = await list(
      '?page=0&per_page=101&assistant_id=x&status=done&direction=up&channel=fax&customer_phone=4155551234&from=yesterday&to=2026-13-45',
    );
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      message: INVALID,
      errors: {
        page: ['The page must be at least 1.'],
        per_page: ['The per page must be between 1 and 100.'],
        assistant_id: ['The assistant id must be an integer.'],
        status: ['The selected status is invalid.'],
        direction: ['The selected direction is invalid.'],
        channel: ['The selected channel is invalid.'],
        customer_phone: ['The customer phone must be a valid E.164 phone number.'],
        from: ['The from must be a valid date.'],
        to: ['The to must be a valid date.'],
      },
    });
  });
});

describe('GET /api/user/calls/{id}', () => {
  it("404 for another account's call, a missing call and a malformed id alike", async () => {
    for (const [user, path] of [
      [stranger, `${calls.ringing}`],
      [owner, '999999'],
      [owner, 'abc'],
      [owner, '0'],
      [owner, '-1'],
    ] as const) {
      const res = await t.http.get(`/api/user/calls/${path}`).set(user.auth);
      expect([path, res.status, res.body]).toEqual([path, 404, NOT_FOUND]);
    }
  });

  it('needs a token', async () => {
    const res = await t.http.get(`/api/user/calls/${calls.ringing}`);
    expect([res.status, res.body]).toEqual([401, { error: 'Unauthorized' }]);
  });
});
