import { createHmac } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';

/**
 * The composed app with SMS_PROVIDER=twilio pointed at a stub on 127.0.0.1: the send reaches
 * Twilio's Messages API as a form, Twilio's refusal charges nothing, and the status callback is
 * applied only with a valid X-Twilio-Signature over the public URL. The sandbox SMS controls are gone.
 */
const PUBLIC = 'https://voiceplane.example.com';
const AUTH_TOKEN = 'twilio-auth-token';
let t: TestApi;
let stub: Server;
const posted: URLSearchParams[] = [];
let refuseNext = false;
let sequence = 0;

beforeAll(async () => {
  stub = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const json = (status: number, value: unknown) =>
        res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(value));
      if (req.method !== 'POST' || !/^\/2010-04-01\/Accounts\/AC1\/Messages\.json$/.test(req.url ?? ''))
        return json(404, { code: 20404, message: 'The requested resource was not found' });
      posted.push(new URLSearchParams(body));
      if (refuseNext) {
        refuseNext = false;
        return json(400, { code: 21610, message: 'Attempt to send to unsubscribed recipient', status: 400 });
      }
      sequence += 1;
      return json(201, { sid: `SM${String(sequence).padStart(32, '0')}`, status: 'queued' });
    });
  });
  await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
  t = await createTestApi({
    startBackground: false,
    env: {
      SMS_PROVIDER: 'twilio',
      TWILIO_ACCOUNT_SID: 'AC1',
      TWILIO_AUTH_TOKEN: AUTH_TOKEN,
      TWILIO_BASE_URL: `http://127.0.0.1:${(stub.address() as AddressInfo).port}`,
      PUBLIC_BASE_URL: PUBLIC,
    },
  });
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => stub.close(resolve));
});

async function ownNumber(user: TestUser): Promise<{ id: number; phone: string }> {
  const phone = `+4940${String(process.pid % 10000).padStart(4, '0')}${String(user.id).padStart(4, '0')}`;
  const [row] = (await t.db.dataSource.query(
    `INSERT INTO phone_numbers (user_id, phone_number, type, country_code, sms_capable) VALUES ($1, $2, 'purchased', 'DE', true) RETURNING id`,
    [user.id, phone],
  )) as { id: string }[];
  return { id: Number(row.id), phone };
}

/** Twilio's signature (its security documentation): HMAC-SHA1 over the URL and the sorted form fields. */
const sign = (url: string, form: Record<string, string>, token = AUTH_TOKEN) =>
  createHmac('sha1', token)
    .update(
      Object.keys(form)
        .sort()
        .reduce((acc, k) => acc + k + form[k], url),
    )
    .digest('base64');
const callback = (path: string, form: Record<string, string>, signature: string | null) => {
  const req = t.http.post(path).set('Content-Type', 'application/x-www-form-urlencoded');
  if (signature !== null) req.set('X-Twilio-Signature', signature);
  return req.send(new URLSearchParams(form).toString());
};

it('sends through the Messages API and applies a signed status callback; a forged one changes nothing', async () => {
  const user = await t.createUser({ balance: 1 });
  const from = await ownNumber(user);
  const sent = await t.http
    .post('/api/user/sms')
    .set(user.auth)
    .send({ from: from.id, to: '+4915123456789', body: 'Hi!' });
  expect(sent.status).toBe(200);
  const id = sent.body.data.id as number;
  expect(Object.fromEntries(posted.at(-1)!)).toEqual({
    To: '+4915123456789',
    From: from.phone,
    Body: 'Hi!',
    StatusCallback: `${PUBLIC}/api/providers/sms/twilio/status?ref=${id}`,
  });
  const sid = `SM${String(sequence).padStart(32, '0')}`;
  const path = `/api/providers/sms/twilio/status?ref=${id}`;
  const form = { MessageSid: sid, SmsSid: sid, MessageStatus: 'delivered', AccountSid: 'AC1', To: '+4915123456789' };

  const forged = await callback(path, { ...form, MessageStatus: 'failed' }, sign(`${PUBLIC}${path}`, form));
  expect({ status: forged.status, body: forged.body }).toEqual({ status: 403, body: { error: 'Invalid signature.' } });
  expect((await callback(path, form, null)).status).toBe(403);
  // Signed over the host the request reached rather than the public URL Twilio called: refused.
  expect((await callback(path, form, sign(`http://127.0.0.1${path}`, form))).status).toBe(403);
  expect((await callback(path, form, sign(`${PUBLIC}${path}`, form, 'another-token'))).status).toBe(403);
  expect((await t.http.get(`/api/user/sms/${id}`).set(user.auth)).body.data.status).toBe('sent');

  const valid = await callback(path, form, sign(`${PUBLIC}${path}`, form));
  expect({ status: valid.status, body: valid.body }).toEqual({ status: 200, body: { received: true } });
  expect((await t.http.get(`/api/user/sms/${id}`).set(user.auth)).body.data.status).toBe('delivered');
  // A late, validly signed `sent` does not move it back.
  const late = { ...form, MessageStatus: 'sent', SmsStatus: 'sent' };
  expect((await callback(path, late, sign(`${PUBLIC}${path}`, late))).status).toBe(200);
  expect((await t.http.get(`/api/user/sms/${id}`).set(user.auth)).body.data.status).toBe('delivered');
});

it('Twilio refusing the message answers 500 with its reason and charges nothing', async () => {
  const user = await t.createUser({ balance: 1 });
  const from = await ownNumber(user);
  refuseNext = true;
  const refused = await t.http
    .post('/api/user/sms')
    .set(user.auth)
    .send({ from: from.id, to: '+4915123456789', body: 'Hi' });
  expect({ status: refused.status, body: refused.body }).toEqual({
    status: 500,
    body: {
      message: 'Failed to send SMS',
      error: 'Twilio refused the message (error 21610): Attempt to send to unsubscribed recipient',
    },
  });
  expect((await t.http.get('/api/user/billing/balance').set(user.auth)).body.total_balance).toBe(1);
});

it('serves no sandbox SMS controls and no sms_send fault with a real provider', async () => {
  const user = await t.createUser();
  expect((await t.http.get('/api/sandbox/sms/outbox').set(user.auth)).status).toBe(404);
  expect((await t.http.post('/api/sandbox/faults').set(user.auth).send({ kind: 'sms_send' })).status).toBe(404);
});
