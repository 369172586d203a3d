import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';
import { createAssistant } from '@voiceplane/stand-ins/calls/fixtures';

/**
 * The Famulor MCP server's eight campaign and lead tools (`src/tools/campaigns.ts`, `leads.ts` of
 * bekservice/Famulor-MCP), each with the exact method, path and body the tool sends.
 */

let t: TestApi;
let user: TestUser;
let assistant: number;

beforeAll(async () => {
  t = await createTestApi({ startBackground: false });
  user = await t.createUser();
  assistant = await createAssistant(t, user, {
    post_call_schema: [{ name: 'appointment_booked', type: 'boolean', description: 'Booked?' }],
  });
});
afterAll(async () => t.close());

describe('Famulor MCP tools', () => {
  let campaign: number;
  let lead: number;

  it('create_campaign: POST /api/user/campaigns with every schema field', async () => {
    const res = await t.http
      .post('/api/user/campaigns')
      .set(user.auth)
      .send({
        name: 'MCP campaign',
        assistant_id: assistant,
        timezone: 'Europe/Berlin',
        max_calls_in_parallel: 2,
        allowed_hours_start_time: '09:00',
        allowed_hours_end_time: '17:00',
        allowed_days: ['monday', 'tuesday'],
        max_retries: 2,
        retry_interval: 30,
        retry_on_voicemail: true,
        retry_on_goal_incomplete: true,
        goal_completion_variable: 'appointment_booked',
        mark_complete_when_no_leads: false,
      });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      name: 'MCP campaign',
      status: 'draft',
      allowed_hours_start_time: '09:00:00',
      goal_completion_variable: 'appointment_booked',
    });
    campaign = res.body.data.id;
  });

  it('list_campaigns: GET /api/user/campaigns answers the bare array the tool expects', async () => {
    const res = await t.http.get('/api/user/campaigns').set(user.auth);
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body.map((c: { id: number }) => c.id)).toContain(campaign);
  });

  it('create_lead: POST /api/user/lead with variables, allow_dupplicate and secondary_contacts', async () => {
    const res = await t.http
      .post('/api/user/lead')
      .set(user.auth)
      .send({
        phone_number: '+491234567890',
        campaign_id: campaign,
        variables: [{ customer_name: 'Max' }],
        allow_dupplicate: false,
        secondary_contacts: [{ phone_number: '+491234567891', variables: { customer_name: 'Erika' } }],
      });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      message: 'Lead created successfully',
      data: { variables: { customer_name: 'Max' }, secondary_contacts: [{ phone_number: '+491234567891' }] },
    });
    lead = res.body.data.id;
  });

  it('list_leads: GET /api/user/leads?page=1&per_page=10', async () => {
    const res = await t.http.get('/api/user/leads?page=1&per_page=10').set(user.auth);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ current_page: 1, per_page: 10, total: 1, data: [{ id: lead }] });
  });

  it('update_lead: PUT /api/leads/{id} (outside /api/user) with the fields the tool sends', async () => {
    const res = await t.http
      .put(`/api/leads/${lead}`)
      .set(user.auth)
      .send({
        campaign_id: campaign,
        phone_number: '+491234567899',
        status: 'completed',
        variables: { customer_name: 'Moritz' },
      });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 200,
      body: { message: 'Lead successfully updated' },
    });
    expect((await t.http.get(`/api/user/leads/${lead}`).set(user.auth)).body.data).toMatchObject({
      phone_number: '+491234567899',
      status: 'completed',
      variables: { customer_name: 'Moritz' },
    });
  });

  it('update_campaign_status: POST /api/user/campaigns/update-status {campaign_id, action}', async () => {
    await t.http.post('/api/user/lead').set(user.auth).send({ phone_number: '+491234567800', campaign_id: campaign });
    const started = await t.http
      .post('/api/user/campaigns/update-status')
      .set(user.auth)
      .send({ campaign_id: campaign, action: 'start' });
    expect(started.body).toEqual({
      message: 'Campaign started successfully.',
      success: true,
      data: { campaign_id: campaign, status: 'in-progress' },
    });
    const stopped = await t.http
      .post('/api/user/campaigns/update-status')
      .set(user.auth)
      .send({ campaign_id: campaign, action: 'stop' });
    expect(stopped.body).toEqual({
      message: 'Campaign stopped successfully.',
      success: true,
      data: { campaign_id: campaign, status: 'stopped' },
    });
  });

  it('delete_lead: DELETE /api/user/leads/{id}', async () => {
    const res = await t.http.delete(`/api/user/leads/${lead}`).set(user.auth);
    expect({ status: res.status, body: res.body }).toEqual({
      status: 200,
      body: { message: 'Lead deleted successfully' },
    });
  });

  it('delete_campaign: DELETE /api/user/campaign/{id}', async () => {
    const res = await t.http.delete(`/api/user/campaign/${campaign}`).set(user.auth);
    expect({ status: res.status, body: res.body }).toEqual({
      status: 200,
      body: { message: 'Campaign deleted successfully' },
    });
  });
});
