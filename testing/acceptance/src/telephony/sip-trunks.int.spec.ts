import { SandboxSipProvisioner } from '@voiceplane/adapter-sandbox';
import { ProvisioningCleanup, TOKENS } from '@voiceplane/application';
import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';

/** SIP trunks through the composed app with the sandbox provisioner. */

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const TRUNK_ID = /^ST_[0-9A-Za-z]{12}$/;
const INVALID = 'The given data was invalid.';
const NOT_FOUND = { error: 'SIP trunk not found.' };
const DUPLICATE = { error: 'A SIP trunk with the same phone number, username, and address already exists.' };
const CREATE_FAILED = { error: 'Failed to create SIP trunk. Please try again or contact support.' };
const UPDATE_FAILED = { error: 'Failed to update SIP trunk. Please try again or contact support.' };
const IP_REQUIRED = 'At least one allowed IP address is required when authorization type is "ip".';

const body = {
  phone_number: '+493012345678',
  nickname: 'Berlin office',
  sip_username: 'acme-trunk',
  sip_password: 'p@ss-word 1',
  sip_address: 'sip.carrier.example',
  country_code: 'de',
};

let t: TestApi;
let owner: TestUser;
let stranger: TestUser;
let sip: SandboxSipProvisioner;

beforeAll(async () => {
  t = await createTestApi({ startBackground: false });
  owner = await t.createUser();
  stranger = await t.createUser();
  sip = t.runtime.container.get<SandboxSipProvisioner>(TOKENS.SipProvisioner);
});
afterAll(async () => {
  await t.close();
});

type Trunk = Record<string, unknown> & { id: number; inbound_trunk_id: string; outbound_trunk_id: string };

let counter = 0;
async function createTrunk(user: TestUser, extra: Record<string, unknown> = {}): Promise<Trunk> {
  counter += 1;
  const res = await t.http
    .post('/api/user/phone-numbers/sip-trunks')
    .set(user.auth)
    .send({ ...body, phone_number: `+4930${1000 + counter}`, ...extra });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

async function storedRow(id: number): Promise<Record<string, unknown>> {
  const rows = await t.db.dataSource.query(
    `SELECT p.*, s.* FROM phone_numbers p JOIN sip_trunks s ON s.id = p.id WHERE p.id = $1`,
    [id],
  );
  return rows[0];
}

/** Everything the sandbox holds for an account: trunk ids and which trunk each route points at. */
function providerState(userId: number) {
  return {
    trunks: sip
      .trunks(userId)
      .map((tr) => tr.id)
      .sort(),
    routes: sip
      .routes(userId)
      .map((r) => `${r.id}->${r.trunkId}`)
      .sort(),
  };
}

describe('POST /api/user/phone-numbers/sip-trunks', () => {
  it('creates both provider trunks and the inbound route, stores the number and answers the fixed record', async () => {
    const res = await t.http.post('/api/user/phone-numbers/sip-trunks').set(owner.auth).send(body);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      message: 'SIP trunk created successfully.',
      data: {
        id: expect.any(Number),
        phone_number: '+493012345678',
        nickname: 'Berlin office',
        sip_username: 'acme-trunk',
        sip_address: 'sip.carrier.example',
        sip_calling_format: '+e164',
        inbound_authorization_type: 'auth',
        allowed_inbound_ips: null,
        outbound_proxy: false,
        country_code: 'DE',
        inbound_trunk_id: expect.stringMatching(TRUNK_ID),
        outbound_trunk_id: expect.stringMatching(TRUNK_ID),
        created_at: expect.stringMatching(ISO),
        updated_at: expect.stringMatching(ISO),
      },
    });
    const trunk = res.body.data as Trunk;
    expect(JSON.stringify(res.body)).not.toContain('p@ss-word 1');
    const inbound = sip.trunk(trunk.inbound_trunk_id);
    const outbound = sip.trunk(trunk.outbound_trunk_id);
    expect(inbound).toEqual({
      id: trunk.inbound_trunk_id,
      direction: 'inbound',
      owner: { accountId: owner.id, phoneNumberId: trunk.id },
      phoneNumber: '+493012345678',
      username: 'acme-trunk',
      password: 'p@ss-word 1',
      authorization: 'auth',
      allowedAddresses: [],
      address: null,
      viaFixedEgress: false,
    });
    expect(outbound).toMatchObject({
      direction: 'outbound',
      address: 'sip.carrier.example',
      username: 'acme-trunk',
      password: 'p@ss-word 1',
      viaFixedEgress: false,
    });
    expect(sip.routes(owner.id).filter((r) => r.trunkId === trunk.inbound_trunk_id)).toHaveLength(1);

    const row = await storedRow(trunk.id);
    expect(row.type).toBe('sip');
    expect(row.sip_password_cipher).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain('p@ss-word 1');

    const numbers = await t.http.get('/api/user/phone-numbers').set(owner.auth);
    expect(numbers.body.data).toContainEqual({
      id: trunk.id,
      phone_number: '+493012345678',
      type: 'sip',
      country_code: 'DE',
      nickname: 'Berlin office',
      sms_capable: false,
      monthly_price: null,
      inbound_assistant_id: null,
      created_at: trunk.created_at,
      updated_at: trunk.updated_at,
    });
  });

  it('ip authorization keeps the de-duplicated list and gives it to the inbound trunk only', async () => {
    const trunk = await createTrunk(owner, {
      inbound_authorization_type: 'ip',
      allowed_inbound_ips: ['203.0.113.10', '198.51.100.0/24', '203.0.113.10'],
      outbound_proxy: 'true',
      sip_calling_format: 'national',
    });
    expect(trunk).toMatchObject({
      inbound_authorization_type: 'ip',
      allowed_inbound_ips: ['203.0.113.10', '198.51.100.0/24'],
      outbound_proxy: true,
      sip_calling_format: 'national',
      country_code: 'DE',
    });
    expect(sip.trunk(trunk.inbound_trunk_id)).toMatchObject({
      authorization: 'ip',
      allowedAddresses: ['203.0.113.10', '198.51.100.0/24'],
    });
    expect(sip.trunk(trunk.outbound_trunk_id)).toMatchObject({ viaFixedEgress: true });
  });

  it('a list sent with auth is ignored; country defaults to US', async () => {
    const res = await t.http
      .post('/api/user/phone-numbers/sip-trunks')
      .set(owner.auth)
      .send({
        phone_number: '100',
        sip_username: 'ext',
        sip_password: 'abc',
        sip_address: '203.0.113.5',
        allowed_inbound_ips: ['1.2.3.4'],
      });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      phone_number: '100',
      nickname: null,
      allowed_inbound_ips: null,
      country_code: 'US',
      sip_calling_format: '+e164',
      outbound_proxy: false,
    });
  });

  it('reports every field rule at once', async () => {
    const res = await t.http
      .post('/api/user/phone-numbers/sip-trunks')
      .set(owner.auth)
      .send({
        phone_number: '+49-30-1234',
        nickname: 'x'.repeat(51),
        sip_username: 'ab',
        sip_password: 'ab',
        sip_address: 'sip.carrier.example:5060',
        sip_calling_format: 'E164',
        inbound_authorization_type: 'digest',
        allowed_inbound_ips: ['10.0.0.1', 'not-an-ip', 7],
        outbound_proxy: 'maybe',
        country_code: 'XX',
      });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      message: INVALID,
      errors: {
        phone_number: ['The phone number format is invalid.'],
        nickname: ['The nickname may not be greater than 50 characters.'],
        sip_username: ['The sip username must be between 3 and 128 characters.'],
        sip_password: ['The sip password must be between 3 and 128 characters.'],
        sip_address: ['The sip address must be a host name or IP address without port.'],
        sip_calling_format: ['The selected sip calling format is invalid.'],
        inbound_authorization_type: ['The selected inbound authorization type is invalid.'],
        'allowed_inbound_ips.1': ['The allowed_inbound_ips.1 format is invalid.'],
        'allowed_inbound_ips.2': ['The allowed_inbound_ips.2 must be a string.'],
        outbound_proxy: ['The outbound proxy field must be true or false.'],
        country_code: ['The selected country code is invalid.'],
      },
    });
  });

  it.each([['sip:carrier.example'], ['carrier.example/path'], ['[2001:db8::1]:5060'], ['https://carrier.example']])(
    'rejects sip_address %p',
    async (address) => {
      const res = await t.http
        .post('/api/user/phone-numbers/sip-trunks')
        .set(owner.auth)
        .send({ ...body, sip_address: address });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        message: INVALID,
        errors: { sip_address: ['The sip address must be a host name or IP address without port.'] },
      });
    },
  );

  it('requires the four fields; the password is not trimmed', async () => {
    const res = await t.http
      .post('/api/user/phone-numbers/sip-trunks')
      .set(owner.auth)
      .send({ sip_password: '', phone_number: '1234567890123456' });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      message: INVALID,
      errors: {
        phone_number: ['The phone number may not be greater than 15 characters.'],
        sip_username: ['The sip username field is required.'],
        sip_password: ['The sip password field is required.'],
        sip_address: ['The sip address field is required.'],
      },
    });
    const spaced = await createTrunk(owner, { sip_password: '  pw  ' });
    expect(sip.trunk(spaced.inbound_trunk_id)?.password).toBe('  pw  ');
  });

  it('ip without addresses is a 422 keyed allowed_inbound_ips, and nothing is provisioned', async () => {
    const before = providerState(owner.id);
    for (const extra of [{}, { allowed_inbound_ips: [] }, { allowed_inbound_ips: null }]) {
      const res = await t.http
        .post('/api/user/phone-numbers/sip-trunks')
        .set(owner.auth)
        .send({ ...body, inbound_authorization_type: 'ip', ...extra });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ message: INVALID, errors: { allowed_inbound_ips: [IP_REQUIRED] } });
    }
    expect(providerState(owner.id)).toEqual(before);
  });

  it('answers 422 for a body that is not an object', async () => {
    const res = await t.http
      .post('/api/user/phone-numbers/sip-trunks')
      .set(owner.auth)
      .set('Content-Type', 'application/json')
      .send('[1]');
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: INVALID, errors: { body: ['The request body must be a JSON object.'] } });
  });

  it('refuses a duplicate (number, username, address) of the same account, host compared case-insensitively', async () => {
    const first = await createTrunk(owner, { phone_number: '+4940111', sip_username: 'dup-user' });
    const before = providerState(owner.id);
    const res = await t.http
      .post('/api/user/phone-numbers/sip-trunks')
      .set(owner.auth)
      .send({ ...body, phone_number: '+4940111', sip_username: 'dup-user', sip_address: 'SIP.Carrier.Example' });
    expect(res.status).toBe(409);
    expect(res.body).toEqual(DUPLICATE);
    expect(providerState(owner.id)).toEqual(before);
    // Another account may use the same triple; a different username is another trunk.
    await createTrunk(stranger, { phone_number: '+4940111', sip_username: 'dup-user' });
    await createTrunk(owner, { phone_number: '+4940111', sip_username: 'dup-user-2' });
    expect(first.id).toEqual(expect.any(Number));
  });

  it.each([0, 1, 2])('a provisioning failure at step %p stores nothing and leaves no provider trunk', async (after) => {
    const before = providerState(owner.id);
    const listed = (await t.http.get('/api/user/phone-numbers').set(owner.auth)).body;
    sip.faults.arm({ accountId: owner.id, count: 1, after });
    const res = await t.http
      .post('/api/user/phone-numbers/sip-trunks')
      .set(owner.auth)
      .send({ ...body, phone_number: '+4989777' });
    expect(res.status).toBe(500);
    expect(res.body).toEqual(CREATE_FAILED);
    expect(providerState(owner.id)).toEqual(before);
    expect((await t.http.get('/api/user/phone-numbers').set(owner.auth)).body).toEqual(listed);
  });

  it('a database failure after provisioning deletes the new provider trunks', async () => {
    const before = providerState(owner.id);
    await t.db.dataSource.query(
      `CREATE FUNCTION vp_test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by test'; END $$`,
    );
    await t.db.dataSource.query(
      `CREATE TRIGGER vp_test_refuse BEFORE INSERT ON sip_trunks FOR EACH ROW EXECUTE FUNCTION vp_test_refuse()`,
    );
    try {
      const res = await t.http
        .post('/api/user/phone-numbers/sip-trunks')
        .set(owner.auth)
        .send({ ...body, phone_number: '+4989778' });
      expect(res.status).toBe(500);
      expect(res.body).toEqual(CREATE_FAILED);
    } finally {
      await t.db.dataSource.query(`DROP TRIGGER vp_test_refuse ON sip_trunks`);
      await t.db.dataSource.query(`DROP FUNCTION vp_test_refuse()`);
    }
    expect(providerState(owner.id)).toEqual(before);
    const leftover = await t.db.dataSource.query(`SELECT id FROM phone_numbers WHERE phone_number = '+4989778'`);
    expect(leftover).toEqual([]);
  });

  it('the sandbox fault route makes the next create fail with the provider-failure body', async () => {
    const armed = await t.http.post('/api/sandbox/faults').set(owner.auth).send({ kind: 'sip_provisioning' });
    expect(armed.status).toBe(200);
    expect(armed.body).toEqual({ ok: true, fault: { kind: 'sip_provisioning', target_id: null, remaining: 1 } });
    // Faults are per account: the stranger is not affected.
    await createTrunk(stranger);
    const res = await t.http
      .post('/api/user/phone-numbers/sip-trunks')
      .set(owner.auth)
      .send({ ...body, phone_number: '+4989779' });
    expect(res.status).toBe(500);
    expect(res.body).toEqual(CREATE_FAILED);
    await createTrunk(owner);
  });
});

describe('GET /api/user/phone-numbers/sip-trunks[/{id}]', () => {
  it('lists the account’s trunks newest first, never another account’s', async () => {
    const a = await createTrunk(owner);
    const b = await createTrunk(owner);
    const theirs = await createTrunk(stranger);
    const res = await t.http.get('/api/user/phone-numbers/sip-trunks').set(owner.auth);
    expect(res.status).toBe(200);
    const ids = (res.body.data as Trunk[]).map((x) => x.id);
    expect(ids.indexOf(b.id)).toBeLessThan(ids.indexOf(a.id));
    expect(ids).not.toContain(theirs.id);
    expect(ids).toEqual([...ids].sort((x, y) => y - x));
    expect((res.body.data as Trunk[]).find((x) => x.id === a.id)).toEqual(a);
    expect(JSON.stringify(res.body)).not.toMatch(/sip_password|p@ss-word/);
  });

  it('reads one trunk exactly as created', async () => {
    const a = await createTrunk(owner);
    const res = await t.http.get(`/api/user/phone-numbers/sip-trunks/${a.id}`).set(owner.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: a });
  });

  it.each(['999999999', 'abc', '0', '-1', '1.5'])('%p is not found', async (id) => {
    const res = await t.http.get(`/api/user/phone-numbers/sip-trunks/${id}`).set(owner.auth);
    expect(res.status).toBe(404);
    expect(res.body).toEqual(NOT_FOUND);
  });

  it('another account’s trunk is not found, and a purchased number is not a trunk', async () => {
    const theirs = await createTrunk(stranger);
    const res = await t.http.get(`/api/user/phone-numbers/sip-trunks/${theirs.id}`).set(owner.auth);
    expect(res.status).toBe(404);
    expect(res.body).toEqual(NOT_FOUND);
    const rows = await t.db.dataSource.query(
      `INSERT INTO phone_numbers (user_id, phone_number, type, country_code, sms_capable, monthly_price) VALUES ($1, '+14155550999', 'purchased', 'US', true, 1.15) RETURNING id`,
      [owner.id],
    );
    const purchased = await t.http.get(`/api/user/phone-numbers/sip-trunks/${rows[0].id}`).set(owner.auth);
    expect(purchased.status).toBe(404);
    expect(purchased.body).toEqual(NOT_FOUND);
  });

  it('needs a token', async () => {
    const res = await t.http.get('/api/user/phone-numbers/sip-trunks');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Unauthorized' });
  });
});

describe('PUT /api/user/phone-numbers/sip-trunks/{id} — re-provisioning table', () => {
  const ipTrunk = { inbound_authorization_type: 'ip', allowed_inbound_ips: ['203.0.113.10'] };

  it.each<[string, Record<string, unknown>, Record<string, unknown>, boolean, boolean]>([
    ['sip_username', {}, { sip_username: 'new-user' }, true, true],
    ['sip_password', {}, { sip_password: 'new-secret' }, true, true],
    ['sip_address', {}, { sip_address: 'sip2.carrier.example' }, false, true],
    ['phone_number', {}, { phone_number: '+4930999000' }, true, true],
    [
      'inbound_authorization_type',
      {},
      { inbound_authorization_type: 'ip', allowed_inbound_ips: ['203.0.113.10'] },
      true,
      false,
    ],
    ['allowed_inbound_ips', ipTrunk, { allowed_inbound_ips: ['203.0.113.10', '2001:db8::/32'] }, true, false],
    ['outbound_proxy', {}, { outbound_proxy: true }, false, true],
    ['sip_calling_format', {}, { sip_calling_format: 'e164' }, false, false],
    ['nickname', {}, { nickname: null }, false, false],
    ['country_code', {}, { country_code: 'at' }, false, false],
  ])('%s changed → exactly the marked trunk ids change', async (_field, initial, change, inbound, outbound) => {
    const trunk = await createTrunk(owner, initial);
    const oldRoute = sip.routes(owner.id).find((r) => r.trunkId === trunk.inbound_trunk_id)!;
    const res = await t.http.put(`/api/user/phone-numbers/sip-trunks/${trunk.id}`).set(owner.auth).send(change);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('SIP trunk updated successfully.');
    const data = res.body.data as Trunk;
    expect(data.inbound_trunk_id !== trunk.inbound_trunk_id).toBe(inbound);
    expect(data.outbound_trunk_id !== trunk.outbound_trunk_id).toBe(outbound);
    expect(data.inbound_trunk_id).toMatch(TRUNK_ID);
    expect(data.outbound_trunk_id).toMatch(TRUNK_ID);
    expect(data.updated_at).not.toBe(trunk.updated_at);
    // Old re-created trunks are gone, the new ones exist, untouched ones stay; the route follows inbound.
    expect(sip.trunk(trunk.inbound_trunk_id) === undefined).toBe(inbound);
    expect(sip.trunk(trunk.outbound_trunk_id) === undefined).toBe(outbound);
    expect(sip.trunk(data.inbound_trunk_id)).toBeDefined();
    expect(sip.trunk(data.outbound_trunk_id)).toBeDefined();
    expect(sip.route(oldRoute.id)?.trunkId).toBe(data.inbound_trunk_id);
    expect((await t.http.get(`/api/user/phone-numbers/sip-trunks/${trunk.id}`).set(owner.auth)).body).toEqual({ data });
  });

  it('new trunks carry the merged configuration, including the new password', async () => {
    const trunk = await createTrunk(owner);
    const res = await t.http
      .put(`/api/user/phone-numbers/sip-trunks/${trunk.id}`)
      .set(owner.auth)
      .send({ sip_password: 'rotated!', sip_username: 'other-user' });
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).not.toContain('rotated!');
    expect(sip.trunk(res.body.data.inbound_trunk_id)).toMatchObject({
      username: 'other-user',
      password: 'rotated!',
      phoneNumber: trunk.phone_number,
    });
    expect(sip.trunk(res.body.data.outbound_trunk_id)).toMatchObject({
      username: 'other-user',
      password: 'rotated!',
      address: 'sip.carrier.example',
    });
    // An address change later re-creates the outbound trunk with the stored (decrypted) password.
    const next = await t.http
      .put(`/api/user/phone-numbers/sip-trunks/${trunk.id}`)
      .set(owner.auth)
      .send({ sip_address: '198.51.100.7' });
    expect(sip.trunk(next.body.data.outbound_trunk_id)).toMatchObject({
      password: 'rotated!',
      address: '198.51.100.7',
      username: 'other-user',
    });
  });

  it('a value equal to the stored one is no change: same ids, same updated_at, nothing provisioned', async () => {
    const trunk = await createTrunk(owner);
    const before = providerState(owner.id);
    const res = await t.http
      .put(`/api/user/phone-numbers/sip-trunks/${trunk.id}`)
      .set(owner.auth)
      .send({
        sip_password: body.sip_password,
        sip_username: 'acme-trunk',
        nickname: 'Berlin office',
        country_code: 'de',
        allowed_inbound_ips: ['9.9.9.9'],
      });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'SIP trunk updated successfully.', data: trunk });
    expect(providerState(owner.id)).toEqual(before);
  });

  it('switching to auth clears the list; switching to ip without a list is refused', async () => {
    const trunk = await createTrunk(owner, ipTrunk);
    const refused = await t.http
      .put(`/api/user/phone-numbers/sip-trunks/${trunk.id}`)
      .set(owner.auth)
      .send({ allowed_inbound_ips: [] });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({ message: INVALID, errors: { allowed_inbound_ips: [IP_REQUIRED] } });
    const auth = await t.http
      .put(`/api/user/phone-numbers/sip-trunks/${trunk.id}`)
      .set(owner.auth)
      .send({ inbound_authorization_type: 'auth' });
    expect(auth.status).toBe(200);
    expect(auth.body.data).toMatchObject({ inbound_authorization_type: 'auth', allowed_inbound_ips: null });
    expect(sip.trunk(auth.body.data.inbound_trunk_id)).toMatchObject({ authorization: 'auth', allowedAddresses: [] });
    const back = await t.http
      .put(`/api/user/phone-numbers/sip-trunks/${trunk.id}`)
      .set(owner.auth)
      .send({ inbound_authorization_type: 'ip' });
    expect(back.status).toBe(422);
    expect(back.body).toEqual({ message: INVALID, errors: { allowed_inbound_ips: [IP_REQUIRED] } });
  });

  it('dry run reports the plan with the old ids and changes nothing', async () => {
    const trunk = await createTrunk(owner);
    const before = providerState(owner.id);
    const res = await t.http
      .put(`/api/user/phone-numbers/sip-trunks/${trunk.id}?dry_run=true`)
      .set(owner.auth)
      .send({ inbound_authorization_type: 'ip', allowed_inbound_ips: ['203.0.113.10'], nickname: 'Renamed' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      message: 'Dry run: no changes were made.',
      data: {
        ...trunk,
        inbound_authorization_type: 'ip',
        allowed_inbound_ips: ['203.0.113.10'],
        nickname: 'Renamed',
        updated_at: expect.stringMatching(ISO),
      },
      reprovision: { inbound: true, outbound: false },
    });
    expect(providerState(owner.id)).toEqual(before);
    expect((await t.http.get(`/api/user/phone-numbers/sip-trunks/${trunk.id}`).set(owner.auth)).body).toEqual({
      data: trunk,
    });
    const nothing = await t.http
      .put(`/api/user/phone-numbers/sip-trunks/${trunk.id}?dry_run=1`)
      .set(owner.auth)
      .send({});
    expect(nothing.body).toEqual({
      message: 'Dry run: no changes were made.',
      data: trunk,
      reprovision: { inbound: false, outbound: false },
    });
    const invalidFlag = await t.http
      .put(`/api/user/phone-numbers/sip-trunks/${trunk.id}?dry_run=maybe`)
      .set(owner.auth)
      .send({});
    expect(invalidFlag.status).toBe(422);
    expect(invalidFlag.body).toEqual({
      message: INVALID,
      errors: { dry_run: ['The dry run field must be true or false.'] },
    });
  });

  it('processing order: 404 before 422 before 409', async () => {
    const mine = await createTrunk(owner, { phone_number: '+4955501', sip_username: 'order-a' });
    await createTrunk(owner, { phone_number: '+4955502', sip_username: 'order-b' });
    const theirs = await createTrunk(stranger);
    const invalid = { sip_username: 'x' };
    const missing = await t.http.put('/api/user/phone-numbers/sip-trunks/999999999').set(owner.auth).send(invalid);
    expect([missing.status, missing.body]).toEqual([404, NOT_FOUND]);
    const foreign = await t.http.put(`/api/user/phone-numbers/sip-trunks/${theirs.id}`).set(owner.auth).send(invalid);
    expect([foreign.status, foreign.body]).toEqual([404, NOT_FOUND]);
    const badId = await t.http.put('/api/user/phone-numbers/sip-trunks/abc').set(owner.auth).send(invalid);
    expect([badId.status, badId.body]).toEqual([404, NOT_FOUND]);
    const unprocessable = await t.http
      .put(`/api/user/phone-numbers/sip-trunks/${mine.id}`)
      .set(owner.auth)
      .send({ sip_username: '', phone_number: '+4955502', nickname: 7 });
    expect(unprocessable.status).toBe(422);
    expect(unprocessable.body).toEqual({
      message: INVALID,
      errors: {
        sip_username: ['The sip username field must have a value.'],
        nickname: ['The nickname must be a string.'],
      },
    });
    const before = providerState(owner.id);
    const duplicate = await t.http
      .put(`/api/user/phone-numbers/sip-trunks/${mine.id}`)
      .set(owner.auth)
      .send({ phone_number: '+4955502', sip_username: 'order-b' });
    expect([duplicate.status, duplicate.body]).toEqual([409, DUPLICATE]);
    expect(providerState(owner.id)).toEqual(before);
    const stillMine = await t.http.get(`/api/user/phone-numbers/sip-trunks/${mine.id}`).set(owner.auth);
    expect(stillMine.body).toEqual({ data: mine });
    // Keeping its own identity is not a duplicate of itself.
    const self = await t.http
      .put(`/api/user/phone-numbers/sip-trunks/${mine.id}`)
      .set(owner.auth)
      .send({ phone_number: '+4955501', sip_username: 'order-a' });
    expect(self.status).toBe(200);
  });
});

describe('PUT — make-before-break failure injection', () => {
  const everything = { sip_username: 'failing-user', sip_password: 'new-pass', sip_address: 'sip9.carrier.example' };

  async function expectUnchanged(
    trunk: Trunk,
    before: ReturnType<typeof providerState>,
    rowBefore: Record<string, unknown>,
  ) {
    expect((await t.http.get(`/api/user/phone-numbers/sip-trunks/${trunk.id}`).set(owner.auth)).body).toEqual({
      data: trunk,
    });
    expect(await storedRow(trunk.id)).toEqual(rowBefore);
    expect(providerState(owner.id)).toEqual(before);
    expect(sip.trunk(trunk.inbound_trunk_id)?.password).toBe(body.sip_password);
  }

  // Steps of a change that re-creates both sides: create inbound (0), create outbound (1), move the route (2).
  it.each([0, 1, 2])(
    'provider failure at call %p: 500, the trunk reads back exactly as before, no orphan trunk',
    async (after) => {
      const trunk = await createTrunk(owner);
      const before = providerState(owner.id);
      const rowBefore = await storedRow(trunk.id);
      sip.faults.arm({ accountId: owner.id, count: 1, after });
      const res = await t.http.put(`/api/user/phone-numbers/sip-trunks/${trunk.id}`).set(owner.auth).send(everything);
      expect(res.status).toBe(500);
      expect(res.body).toEqual(UPDATE_FAILED);
      await expectUnchanged(trunk, before, rowBefore);
    },
  );

  it('database failure at step 3: the route goes back, the new trunks are deleted, the row is untouched', async () => {
    const trunk = await createTrunk(owner);
    const before = providerState(owner.id);
    const rowBefore = await storedRow(trunk.id);
    await t.db.dataSource.query(
      `CREATE FUNCTION vp_test_refuse_update() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by test'; END $$`,
    );
    await t.db.dataSource.query(
      `CREATE TRIGGER vp_test_refuse_update BEFORE UPDATE ON sip_trunks FOR EACH ROW EXECUTE FUNCTION vp_test_refuse_update()`,
    );
    try {
      const res = await t.http.put(`/api/user/phone-numbers/sip-trunks/${trunk.id}`).set(owner.auth).send(everything);
      expect(res.status).toBe(500);
      expect(res.body).toEqual(UPDATE_FAILED);
    } finally {
      await t.db.dataSource.query(`DROP TRIGGER vp_test_refuse_update ON sip_trunks`);
      await t.db.dataSource.query(`DROP FUNCTION vp_test_refuse_update()`);
    }
    await expectUnchanged(trunk, before, rowBefore);
  });

  it('a failure while undoing is finished by the clean-up job: no orphan remains', async () => {
    const trunk = await createTrunk(owner);
    const before = providerState(owner.id);
    const rowBefore = await storedRow(trunk.id);
    // Route move fails (call 2), then moving it back (call 3) fails too.
    sip.faults.arm({ accountId: owner.id, count: 2, after: 2 });
    const res = await t.http.put(`/api/user/phone-numbers/sip-trunks/${trunk.id}`).set(owner.auth).send(everything);
    expect(res.status).toBe(500);
    expect(res.body).toEqual(UPDATE_FAILED);
    expect((await t.http.get(`/api/user/phone-numbers/sip-trunks/${trunk.id}`).set(owner.auth)).body).toEqual({
      data: trunk,
    });
    expect(await storedRow(trunk.id)).toEqual(rowBefore);
    // The two new trunks still exist until the job has put the route back.
    expect(providerState(owner.id).trunks).toHaveLength(before.trunks.length + 2);
    await t.db.dataSource.query(`UPDATE sip_provisioning_cleanup SET next_attempt_at = now() - interval '1 second'`);
    await t.runtime.container.get(ProvisioningCleanup).runDue();
    expect(providerState(owner.id)).toEqual(before);
  });

  it('step 4 failure still answers 200; the old trunk is retired later by the clean-up job', async () => {
    const trunk = await createTrunk(owner);
    // Calls: create outbound (0), delete old outbound (1) fails.
    sip.faults.arm({ accountId: owner.id, count: 1, after: 1 });
    const res = await t.http
      .put(`/api/user/phone-numbers/sip-trunks/${trunk.id}`)
      .set(owner.auth)
      .send({ sip_address: 'sip3.carrier.example' });
    expect(res.status).toBe(200);
    expect(res.body.data.outbound_trunk_id).not.toBe(trunk.outbound_trunk_id);
    expect(sip.trunk(trunk.outbound_trunk_id)).toBeDefined();
    const pending = await t.db.dataSource.query(
      `SELECT action, resource_id, attempts, last_error FROM sip_provisioning_cleanup WHERE resource_id = $1`,
      [trunk.outbound_trunk_id],
    );
    expect(pending).toEqual([
      {
        action: 'delete_trunk',
        resource_id: trunk.outbound_trunk_id,
        attempts: 1,
        last_error: 'Sandbox fault injected (sip_provisioning).',
      },
    ]);
    await t.db.dataSource.query(`UPDATE sip_provisioning_cleanup SET next_attempt_at = now() - interval '1 second'`);
    await t.runtime.container.get(ProvisioningCleanup).runDue();
    expect(sip.trunk(trunk.outbound_trunk_id)).toBeUndefined();
    expect(
      await t.db.dataSource.query(`SELECT id FROM sip_provisioning_cleanup WHERE resource_id = $1`, [
        trunk.outbound_trunk_id,
      ]),
    ).toEqual([]);
  });

  it('an old trunk that still carries calls is retired only once it is idle', async () => {
    const trunk = await createTrunk(owner);
    sip.setActiveCalls(trunk.outbound_trunk_id, 1);
    const res = await t.http
      .put(`/api/user/phone-numbers/sip-trunks/${trunk.id}`)
      .set(owner.auth)
      .send({ outbound_proxy: true });
    expect(res.status).toBe(200);
    expect(sip.trunk(trunk.outbound_trunk_id)).toBeDefined();
    await t.db.dataSource.query(`UPDATE sip_provisioning_cleanup SET next_attempt_at = now() - interval '1 second'`);
    await t.runtime.container.get(ProvisioningCleanup).runDue();
    expect(sip.trunk(trunk.outbound_trunk_id)).toBeDefined();
    sip.setActiveCalls(trunk.outbound_trunk_id, 0);
    await t.db.dataSource.query(`UPDATE sip_provisioning_cleanup SET next_attempt_at = now() - interval '1 second'`);
    await t.runtime.container.get(ProvisioningCleanup).runDue();
    expect(sip.trunk(trunk.outbound_trunk_id)).toBeUndefined();
  });

  it('a fault aimed at another number does not touch this one; the fault route answers 404 for a foreign target', async () => {
    const trunk = await createTrunk(owner);
    const other = await createTrunk(owner);
    const theirs = await createTrunk(stranger);
    const foreign = await t.http
      .post('/api/sandbox/faults')
      .set(owner.auth)
      .send({ kind: 'sip_provisioning', target_id: theirs.id });
    expect([foreign.status, foreign.body]).toEqual([404, { message: 'Not found.' }]);
    const aimed = await t.http
      .post('/api/sandbox/faults')
      .set(owner.auth)
      .send({ kind: 'sip_provisioning', target_id: String(other.id), count: 3 });
    expect(aimed.body).toEqual({ ok: true, fault: { kind: 'sip_provisioning', target_id: other.id, remaining: 3 } });
    expect(
      (
        await t.http
          .put(`/api/user/phone-numbers/sip-trunks/${trunk.id}`)
          .set(owner.auth)
          .send({ sip_username: 'untouched' })
      ).status,
    ).toBe(200);
    const hit = await t.http
      .put(`/api/user/phone-numbers/sip-trunks/${other.id}`)
      .set(owner.auth)
      .send({ sip_username: 'touched' });
    expect([hit.status, hit.body]).toEqual([500, UPDATE_FAILED]);
  });
});

describe('DELETE /api/user/phone-numbers/{id} for SIP trunks (and the sip-trunks alias)', () => {
  it('deletes the route and both provider trunks, then the record', async () => {
    const trunk = await createTrunk(owner);
    const res = await t.http.delete(`/api/user/phone-numbers/sip-trunks/${trunk.id}`).set(owner.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Phone number deleted successfully.' });
    expect(sip.trunk(trunk.inbound_trunk_id)).toBeUndefined();
    expect(sip.trunk(trunk.outbound_trunk_id)).toBeUndefined();
    expect(sip.routes(owner.id).find((r) => r.owner.phoneNumberId === trunk.id)).toBeUndefined();
    const again = await t.http.delete(`/api/user/phone-numbers/${trunk.id}`).set(owner.auth);
    expect([again.status, again.body]).toEqual([404, { error: 'Phone number not found.' }]);
    const read = await t.http.get(`/api/user/phone-numbers/sip-trunks/${trunk.id}`).set(owner.auth);
    expect([read.status, read.body]).toEqual([404, NOT_FOUND]);
  });

  it('a provider failure answers 500 and changes nothing', async () => {
    const trunk = await createTrunk(owner);
    const before = providerState(owner.id);
    const armed = await t.http
      .post('/api/sandbox/faults')
      .set(owner.auth)
      .send({ kind: 'sip_provisioning', target_id: trunk.id });
    expect(armed.status).toBe(200);
    const res = await t.http.delete(`/api/user/phone-numbers/${trunk.id}`).set(owner.auth);
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: 'Failed to delete phone number. Please try again or contact support.' });
    expect(providerState(owner.id)).toEqual(before);
    expect((await t.http.get(`/api/user/phone-numbers/sip-trunks/${trunk.id}`).set(owner.auth)).body).toEqual({
      data: trunk,
    });
  });

  it('another account’s number is not found and stays', async () => {
    const theirs = await createTrunk(stranger);
    for (const path of [
      `/api/user/phone-numbers/${theirs.id}`,
      `/api/user/phone-numbers/sip-trunks/${theirs.id}`,
      '/api/user/phone-numbers/abc',
    ]) {
      const res = await t.http.delete(path).set(owner.auth);
      expect([res.status, res.body]).toEqual([404, { error: 'Phone number not found.' }]);
    }
    expect((await t.http.get(`/api/user/phone-numbers/sip-trunks/${theirs.id}`).set(stranger.auth)).body).toEqual({
      data: theirs,
    });
  });
});

describe('sandbox fault route', () => {
  it('validates the body and rejects unknown kinds', async () => {
    const invalid = await t.http.post('/api/sandbox/faults').set(owner.auth).send({ count: 0 });
    expect(invalid.status).toBe(422);
    expect(invalid.body).toEqual({
      message: INVALID,
      errors: { kind: ['The kind field is required.'], count: ['The count must be between 1 and 100.'] },
    });
    const unknown = await t.http.post('/api/sandbox/faults').set(owner.auth).send({ kind: 'meteor_strike' });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toEqual({ message: INVALID, errors: { kind: ['The selected kind is invalid.'] } });
  });

  it('needs a user token', async () => {
    const res = await t.http.post('/api/sandbox/faults').send({ kind: 'sip_provisioning' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Unauthorized' });
  });
});
