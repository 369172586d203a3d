import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';
import { createAssistant, makeCall } from '@voiceplane/stand-ins/calls/fixtures';

/** GET /api/user/analytics/calls through the composed app, over calls placed, answered and ended as the voice runtime reports them. */

let t: TestApi;
let owner: TestUser;
let other: TestUser;
let first: number;
let second: number;

/** The voice runtime's own report of the end, as the agent sends it. */
const finish = (id: number, data: Record<string, unknown>) =>
  t.http
    .post(`/api/runtime/calls/${id}/events`)
    .set(t.runtimeAuth)
    .send({ event_id: `end-${id}`, type: 'ended', data })
    .expect(200);
const answer = (id: number) =>
  t.http
    .post(`/api/runtime/calls/${id}/events`)
    .set(t.runtimeAuth)
    .send({ event_id: `answer-${id}`, type: 'answered' })
    .expect(200);
const analytics = (user: TestUser, query = '') => t.http.get(`/api/user/analytics/calls${query}`).set(user.auth);
const today = () => new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  t = await createTestApi({ startBackground: false });
  owner = await t.createUser({ balance: 50 });
  other = await t.createUser({ balance: 50 });
  first = await createAssistant(t, owner);
  second = await createAssistant(t, owner);
  const calls = [
    await makeCall(t, owner, first),
    await makeCall(t, owner, first),
    await makeCall(t, owner, first),
    await makeCall(t, owner, second),
  ];
  await answer(calls[0]);
  await finish(calls[0], {
    status: 'completed',
    duration: 30,
    extracted_variables: { status: true },
    ended_reason: 'customer_hangup',
  });
  await answer(calls[1]);
  await finish(calls[1], {
    status: 'completed',
    duration: 90,
    extracted_variables: { status: false },
    ended_reason: 'customer_hangup',
  });
  await finish(calls[2], { status: 'no-answer', ended_reason: 'no_answer' });
  await answer(calls[3]);
  await finish(calls[3], {
    status: 'completed',
    duration: 61,
    extracted_variables: { status: true, booked: true },
    ended_reason: 'assistant_hangup',
  });
});
afterAll(async () => t.close());

describe('GET /api/user/analytics/calls', () => {
  it("shows the account's calls of the last 30 days: per day by status, rates, durations, cost and ended reasons", async () => {
    const res = await analytics(owner);
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data).toEqual(expect.objectContaining({ to: today(), assistant_id: null, goal_variable: 'status' }));
    expect(data.days).toHaveLength(30);
    expect(data.days[29]).toEqual({ date: today(), calls: 4, by_status: { completed: 3, 'no-answer': 1 }, cost: 0.5 });
    expect(data.days[0]).toEqual({ date: data.from, calls: 0, by_status: {}, cost: 0 });
    expect(data.totals).toEqual({
      calls: 4,
      answered: 3,
      answer_rate: 0.75,
      average_duration: 60.3,
      p95_duration: expect.closeTo(87.1, 1),
      cost: 0.5,
      completed: 3,
      goal_met: 2,
      success_rate: 0.6667,
    });
    expect(data.ended_reasons).toEqual([
      { ended_reason: 'customer_hangup', calls: 2 },
      { ended_reason: 'assistant_hangup', calls: 1 },
      { ended_reason: 'no_answer', calls: 1 },
    ]);
  });

  it('narrows to one assistant, and reads another goal variable', async () => {
    const one = (await analytics(owner, `?assistant_id=${second}&goal_variable=booked`)).body.data;
    expect(one).toEqual(expect.objectContaining({ assistant_id: second, goal_variable: 'booked' }));
    expect(one.totals).toEqual(
      expect.objectContaining({ calls: 1, answered: 1, completed: 1, goal_met: 1, success_rate: 1, cost: 0.2 }),
    );
  });

  it('takes a date range in whole UTC days', async () => {
    const past = (await analytics(owner, '?from=2026-01-01&to=2026-01-03T23:00:00Z')).body.data;
    expect(past.days.map((d: { date: string }) => d.date)).toEqual(['2026-01-01', '2026-01-02', '2026-01-03']);
    expect(past.totals).toEqual(
      expect.objectContaining({
        calls: 0,
        answer_rate: null,
        success_rate: null,
        average_duration: null,
        p95_duration: null,
      }),
    );
  });

  it('shows another account nothing of these calls, and an assistant of another account as no calls', async () => {
    const res = (await analytics(other)).body.data;
    expect(res.totals.calls).toBe(0);
    const theirs = (await analytics(other, `?assistant_id=${first}`)).body.data;
    expect(theirs.totals.calls).toBe(0);
  });

  it('refuses what it cannot show with the validation family', async () => {
    const reversed = await analytics(owner, '?from=2026-03-02&to=2026-03-01');
    expect([reversed.status, reversed.body]).toEqual([
      422,
      { message: 'The given data was invalid.', errors: { to: ['The to must be a date after or equal to from.'] } },
    ]);
    const long = await analytics(owner, '?from=2024-01-01&to=2026-01-01');
    expect([long.status, long.body]).toEqual([
      422,
      { message: 'The given data was invalid.', errors: { from: ['The range may not be longer than 366 days.'] } },
    ]);
    const bad = await analytics(owner, '?from=yesterday&assistant_id=99999999999999999999999&goal_variable=a%20b');
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['assistant_id', 'from', 'goal_variable']);
    expect((await t.http.get('/api/user/analytics/calls')).status).toBe(401);
  });
});
