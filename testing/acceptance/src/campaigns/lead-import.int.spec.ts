import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';
import { createAssistant } from '@voiceplane/stand-ins/calls/fixtures';

/** Bulk lead import as JSON and as a CSV upload. */

const INVALID = 'The given data was invalid.';
let t: TestApi;
let owner: TestUser;
let assistant: number;

beforeAll(async () => {
  t = await createTestApi({ startBackground: false });
  owner = await t.createUser();
  assistant = await createAssistant(t, owner);
});
afterAll(async () => t.close());

const newCampaign = async () =>
  (await t.http.post('/api/user/campaigns').set(owner.auth).send({ name: 'Import', assistant_id: assistant })).body.data
    .id as number;
const leadsOf = async (campaign: number) =>
  (await t.http.get(`/api/user/leads?campaign_id=${campaign}&per_page=100`).set(owner.auth)).body;
const csv = (
  campaign: number,
  text: string | Buffer,
  fields: Record<string, string> = {},
  path = `/api/user/campaign/${campaign}/leads/import`,
) => {
  let req = t.http.post(path).set(owner.auth);
  for (const [k, v] of Object.entries(fields)) req = req.field(k, v);
  return req.attach('file', Buffer.isBuffer(text) ? text : Buffer.from(text), {
    filename: 'leads.csv',
    contentType: 'text/csv',
  });
};

describe('JSON', () => {
  it('stores the valid leads and reports duplicates and invalid rows', async () => {
    const campaign = await newCampaign();
    await t.http.post('/api/user/lead').set(owner.auth).send({ campaign_id: campaign, phone_number: '+14155550001' });
    const res = await t.http
      .post(`/api/user/campaign/${campaign}/leads/import`)
      .set(owner.auth)
      .send({
        leads: [
          { phone_number: '+14155550001' },
          {
            phone_number: '+1 415 555 0002',
            variables: { name: 'Ann' },
            secondary_contacts: [{ phone_number: '+14155550003' }],
          },
          { phone_number: '+14155550002' },
          { phone_number: 'nope' },
          { phone_number: '+14155550001', allow_dupplicate: true },
          'x',
        ],
      });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 200,
      body: {
        message: 'Leads imported.',
        accepted: 2,
        duplicates: 2,
        do_not_call: 0,
        invalid_count: 2,
        invalid: [
          { row: 4, errors: { phone_number: ['The phone number must be a valid E.164 phone number.'] } },
          { row: 6, errors: { body: ['The request body must be a JSON object.'] } },
        ],
      },
    });
    const leads = await leadsOf(campaign);
    expect(leads.total).toBe(3);
    expect(leads.data.find((l: { phone_number: string }) => l.phone_number === '+14155550002')).toMatchObject({
      variables: { name: 'Ann' },
      secondary_contacts: [{ phone_number: '+14155550003' }],
    });
  });

  it('takes 10,000 leads in one request within seconds', async () => {
    const campaign = await newCampaign();
    const leads = Array.from({ length: 10_000 }, (_, i) => ({
      phone_number: `+1415${String(5000000 + i)}`,
      variables: { n: String(i) },
    }));
    const began = Date.now();
    const res = await t.http.post(`/api/user/campaigns/${campaign}/leads/import`).set(owner.auth).send({ leads });
    const took = Date.now() - began;
    expect([res.status, res.body.accepted, res.body.invalid_count]).toEqual([200, 10_000, 0]);
    expect(took).toBeLessThan(30_000);
    expect((await t.http.get(`/api/user/campaign/${campaign}`).set(owner.auth)).body.data.leads_count).toBe(10_000);
  });

  it.each<[unknown, Record<string, string[]>]>([
    [{}, { leads: ['The leads field is required.'] }],
    [{ leads: [] }, { leads: ['The leads must have at least 1 items.'] }],
    [{ leads: 'x' }, { leads: ['The leads must be an array.'] }],
  ])('422 for %j', async (body, errors) => {
    const campaign = await newCampaign();
    const res = await t.http
      .post(`/api/user/campaign/${campaign}/leads/import`)
      .set(owner.auth)
      .send(body as object);
    expect({ status: res.status, body: res.body }).toEqual({ status: 422, body: { message: INVALID, errors } });
  });

  it("another account's campaign is not found, and nothing is stored", async () => {
    const campaign = await newCampaign();
    const stranger = await t.createUser();
    const res = await t.http
      .post(`/api/user/campaign/${campaign}/leads/import`)
      .set(stranger.auth)
      .send({ leads: [{ phone_number: '+14155550001' }] });
    expect({ status: res.status, body: res.body }).toEqual({ status: 404, body: { message: 'Campaign not found' } });
    expect((await leadsOf(campaign)).total).toBe(0);
  });
});

describe('CSV', () => {
  it('reads a BOM, semicolons, Windows line ends and quotes inside quotes; keeps formulas as text', async () => {
    const campaign = await newCampaign();
    const text =
      '\ufeffname;Phone;note\r\n"Ann ""A"" Lee";+1 415 555 0101;=cmd|\' /C calc\'!A0\r\nBob;+14155550102;\r\n;12;x\r\n';
    const res = await csv(campaign, text);
    expect({ status: res.status, body: res.body }).toEqual({
      status: 200,
      body: {
        message: 'Leads imported.',
        accepted: 2,
        duplicates: 0,
        do_not_call: 0,
        invalid_count: 1,
        invalid: [{ row: 3, errors: { phone_number: ['The phone number must be a valid E.164 phone number.'] } }],
      },
    });
    const leads = (await leadsOf(campaign)).data as Array<{ phone_number: string; variables: Record<string, string> }>;
    expect(leads.find((l) => l.phone_number === '+14155550101')?.variables).toEqual({
      name: 'Ann "A" Lee',
      note: "=cmd|' /C calc'!A0",
    });
    expect(leads.find((l) => l.phone_number === '+14155550102')?.variables).toEqual({ name: 'Bob' });
  });

  it('honours allow_dupplicate from the form', async () => {
    const campaign = await newCampaign();
    const text = 'phone_number\n+14155550201\n+14155550201\n';
    expect((await csv(campaign, text)).body).toMatchObject({ accepted: 1, duplicates: 1 });
    expect((await csv(campaign, text, { allow_dupplicate: 'true' })).body).toMatchObject({
      accepted: 2,
      duplicates: 0,
    });
  });

  it.each<[string | Buffer, Record<string, string[]>]>([
    ['name,email\nAnn,a@b.c\n', { file: ['The file must have a phone_number column.'] }],
    ['phone_number\n', { file: ['The file must hold at least one lead.'] }],
    [Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0xff, 0xfe]), { file: ['The file must be a CSV file.'] }],
    ['phone,"unclosed\n+14155550301,x\n', { file: ['The file must be a CSV file.'] }],
  ])('422 for a bad file (%#)', async (text, errors) => {
    const campaign = await newCampaign();
    const res = await csv(campaign, text);
    expect({ status: res.status, body: res.body }).toEqual({ status: 422, body: { message: INVALID, errors } });
    expect((await leadsOf(campaign)).total).toBe(0);
  });

  it('refuses a file over 10 MB with 413', async () => {
    const campaign = await newCampaign();
    const res = await csv(campaign, `phone\n+14155550401,${'x'.repeat(12 * 1024 * 1024)}\n`);
    expect(res.status).toBe(413);
    expect((await leadsOf(campaign)).total).toBe(0);
  });
});
