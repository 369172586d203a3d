import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';

/**
 * The composed app with SIP_PROVISIONER=livekit and NUMBER_INVENTORY=twilio, each pointed at a
 * stub on 127.0.0.1: the real adapters are chosen by configuration, and the sandbox fault kinds
 * answer 404 because their providers are not the sandbox.
 */

let t: TestApi;
let user: TestUser;
let stub: Server;
const calls: { path: string; body: string }[] = [];
let sequence = 0;

beforeAll(async () => {
  stub = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const path = req.url ?? '';
      calls.push({ path, body });
      const json = (status: number, value: unknown) =>
        res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(value));
      if (path.includes('/AvailablePhoneNumbers/GB/Local.json')) {
        return json(200, {
          available_phone_numbers: [
            {
              phone_number: '+442079460123',
              iso_country: 'GB',
              address_requirements: 'any',
              capabilities: { voice: true, SMS: false },
            },
          ],
        });
      }
      if (path.startsWith('/twirp/livekit.SIP/Create')) {
        sequence += 1;
        return json(
          200,
          path.endsWith('DispatchRule')
            ? { sip_dispatch_rule_id: `SDR_stub${sequence}` }
            : { sip_trunk_id: `ST_stub${String(sequence).padStart(8, '0')}` },
        );
      }
      return json(404, { code: 'not_found', msg: 'no stub' });
    });
  });
  await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
  t = await createTestApi({
    startBackground: false,
    env: {
      SIP_PROVISIONER: 'livekit',
      LIVEKIT_URL: origin,
      LIVEKIT_API_KEY: 'APIkey',
      LIVEKIT_API_SECRET: 'a-secret-long-enough-for-hs256-signing',
      NUMBER_INVENTORY: 'twilio',
      TWILIO_ACCOUNT_SID: 'AC123',
      TWILIO_AUTH_TOKEN: 'token',
      TWILIO_BASE_URL: origin,
    },
  });
  user = await t.createUser();
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => stub.close(resolve));
});

it('provisions SIP trunks on LiveKit', async () => {
  const res = await t.http.post('/api/user/phone-numbers/sip-trunks').set(user.auth).send({
    phone_number: '+493012345678',
    sip_username: 'acme',
    sip_password: 'secret',
    sip_address: 'sip.carrier.example',
  });
  expect(res.status).toBe(201);
  expect(res.body.data).toMatchObject({ inbound_trunk_id: 'ST_stub00000001', outbound_trunk_id: 'ST_stub00000002' });
  expect(calls.map((c) => c.path)).toEqual([
    '/twirp/livekit.SIP/CreateSIPInboundTrunk',
    '/twirp/livekit.SIP/CreateSIPOutboundTrunk',
    '/twirp/livekit.SIP/CreateSIPDispatchRule',
  ]);
});

it('searches numbers on Twilio, mapping `any` to `local`', async () => {
  const res = await t.http.get('/api/user/phone-numbers/search?country_code=GB&contains=7946').set(user.auth);
  expect(res.status).toBe(200);
  expect(res.body).toEqual({
    data: [
      {
        phone_number: '+442079460123',
        phone_number_formatted: '020 7946 0123',
        country_code: 'GB',
        price: 1.5,
        billing_price_id: 'price_gb_local_monthly',
        address_requirements: 'local',
        sms_capable: false,
      },
    ],
  });
  expect(calls.at(-1)?.path).toBe(
    '/2010-04-01/Accounts/AC123/AvailablePhoneNumbers/GB/Local.json?PageSize=40&Contains=7946',
  );
});

it('answers 502 when Twilio fails', async () => {
  const res = await t.http.get('/api/user/phone-numbers/search?country_code=US').set(user.auth);
  expect([res.status, res.body]).toEqual([502, { message: 'Number search is temporarily unavailable.' }]);
});

it.each(['sip_provisioning', 'number_inventory'])(
  'the sandbox fault %s is 404 while its provider is a real one',
  async (kind) => {
    const res = await t.http.post('/api/sandbox/faults').set(user.auth).send({ kind });
    expect([res.status, res.body]).toEqual([404, { message: 'Not found.' }]);
  },
);
