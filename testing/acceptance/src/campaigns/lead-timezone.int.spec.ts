import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';
import { createAssistant } from '@voiceplane/stand-ins/calls/fixtures';

/**
 * Calling windows in the lead's own time through the composed app and the tick route: each
 * contact's window is read in its `timezone` variable, else its number's country zone, else the
 * campaign's; leads show the zone used.
 */

let t: TestApi;
let user: TestUser;

beforeAll(async () => {
  t = await createTestApi({ startBackground: false });
  user = await t.createUser({ balance: 100 });
});
afterAll(async () => t.close());

async function campaign(fields: Record<string, unknown>) {
  const assistant = await createAssistant(t, user);
  const res = await t.http
    .post('/api/user/campaigns')
    .set(user.auth)
    .send({
      name: 'Zones',
      assistant_id: assistant,
      timezone: 'America/New_York',
      allowed_hours_start_time: '09:00',
      allowed_hours_end_time: '17:00',
      ...fields,
    });
  if (res.status !== 201) throw new Error(`campaign: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data as { id: number; window_in_lead_timezone: boolean };
}
const lead = async (campaignId: number, phone: string, variables: Record<string, string> = {}) =>
  (await t.http.post('/api/user/lead').set(user.auth).send({ campaign_id: campaignId, phone_number: phone, variables }))
    .body.data as { id: number; timezone_used: string };
const tick = async (campaignId: number, at: string) =>
  (await t.http.post(`/api/sandbox/campaigns/${campaignId}/tick`).set(user.auth).send({ at })).body.placed as number[];
const phoneOf = async (callId: number) =>
  (await t.http.get(`/api/user/calls/${callId}`).set(user.auth)).body.data.customer_phone;

describe("windows in the lead's own time", () => {
  it("calls each lead inside its own window, on either side of Berlin's daylight-saving change", async () => {
    const c = await campaign({ window_in_lead_timezone: true });
    expect(c.window_in_lead_timezone).toBe(true);
    const berlin = await lead(c.id, '+4930901820');
    const newYork = await lead(c.id, '+12125550100');
    const tokyo = await lead(c.id, '+442071838750', { timezone: 'Asia/Tokyo' });
    expect([berlin.timezone_used, newYork.timezone_used, tokyo.timezone_used]).toEqual([
      'Europe/Berlin',
      'America/New_York',
      'Asia/Tokyo',
    ]);
    expect(
      (
        await t.http
          .post('/api/user/campaigns/update-status')
          .set(user.auth)
          .send({ campaign_id: c.id, action: 'start' })
      ).status,
    ).toBe(200);
    // Friday 26 March 2027, 07:30 UTC: Berlin 08:30 (UTC+1), New York 03:30, Tokyo 16:30.
    expect(await Promise.all((await tick(c.id, '2027-03-26T07:30:00Z')).map(phoneOf))).toEqual(['+442071838750']);
    // Monday 29 March, 06:30 UTC: Berlin 08:30 in summer time (UTC+2) — not yet; an hour earlier in UTC than before.
    expect(await tick(c.id, '2027-03-29T06:30:00Z')).toEqual([]);
    // 07:00 UTC is 09:00 in Berlin now.
    expect(await Promise.all((await tick(c.id, '2027-03-29T07:00:00Z')).map(phoneOf))).toEqual(['+4930901820']);
    // New York opens at 13:00 UTC (09:00 EDT).
    expect(await tick(c.id, '2027-03-29T12:59:00Z')).toEqual([]);
    expect(await Promise.all((await tick(c.id, '2027-03-29T13:00:00Z')).map(phoneOf))).toEqual(['+12125550100']);
  });

  it("reads every lead in the campaign's zone when the campaign does not read windows per lead", async () => {
    const c = await campaign({});
    expect(c.window_in_lead_timezone).toBe(false);
    const berlin = await lead(c.id, '+4930901821');
    expect(berlin.timezone_used).toBe('America/New_York');
    await t.http.post('/api/user/campaigns/update-status').set(user.auth).send({ campaign_id: c.id, action: 'start' });
    expect(await tick(c.id, '2027-03-29T07:00:00Z')).toEqual([]);
    expect(await tick(c.id, '2027-03-29T13:00:00Z')).toHaveLength(1);
    // Switching the campaign over later applies to leads already stored.
    const stop = { campaign_id: c.id, action: 'stop' };
    await t.http.post('/api/user/campaigns/update-status').set(user.auth).send(stop);
    const updated = await t.http
      .put(`/api/user/campaign/${c.id}`)
      .set(user.auth)
      .send({ window_in_lead_timezone: true });
    expect(updated.body.data.window_in_lead_timezone).toBe(true);
    expect((await t.http.get(`/api/user/leads/${berlin.id}`).set(user.auth)).body.data.timezone_used).toBe(
      'Europe/Berlin',
    );
  });
});
