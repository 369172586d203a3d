import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { SmsProviderRefusal } from '@voiceplane/application';
import { TwilioSmsProvider, TwilioSmsStatusGate, twilioSignature } from './twilio-sms';

/** The Messages API adapter against a stub on 127.0.0.1 speaking Twilio's wire format. */
let stub: Server;
let origin: string;
const seen: { method: string; path: string; auth: string; type: string; form: URLSearchParams }[] = [];
let next: { status: number; body: unknown } | 'hang' = { status: 201, body: {} };

beforeAll(async () => {
  stub = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        path: req.url ?? '',
        auth: req.headers.authorization ?? '',
        type: req.headers['content-type'] ?? '',
        form: new URLSearchParams(body),
      });
      if (next === 'hang') return;
      res.writeHead(next.status, { 'Content-Type': 'application/json' }).end(JSON.stringify(next.body));
    });
  });
  await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
});
afterAll(async () => {
  stub.closeAllConnections();
  await new Promise((resolve) => stub.close(resolve));
});
beforeEach(() => {
  seen.length = 0;
});

const provider = (timeoutMs?: number) =>
  new TwilioSmsProvider({
    accountSid: 'AC0123456789abcdef0123456789abcdef',
    authToken: 'token',
    baseUrl: origin,
    publicBaseUrl: 'https://vp.example.com/',
    timeoutMs,
  });
const sms = {
  userId: 7,
  phoneNumberId: 41,
  from: '+4930123456',
  to: '+4915123456789',
  body: 'Hallo € 👋',
  reference: 913,
};

it('posts the message as Twilio wants it, with the status callback naming our id, and keeps its sid', async () => {
  next = {
    status: 201,
    body: { sid: 'SM0123456789abcdef0123456789abcdef', status: 'queued', num_segments: '1', price: null },
  };
  expect(await provider().send(sms)).toEqual({ providerMessageId: 'SM0123456789abcdef0123456789abcdef' });
  expect(seen).toHaveLength(1);
  const [r] = seen;
  expect(r.method).toBe('POST');
  expect(r.path).toBe('/2010-04-01/Accounts/AC0123456789abcdef0123456789abcdef/Messages.json');
  expect(r.auth).toBe(`Basic ${Buffer.from('AC0123456789abcdef0123456789abcdef:token').toString('base64')}`);
  expect(r.type).toBe('application/x-www-form-urlencoded');
  expect(Object.fromEntries(r.form)).toEqual({
    To: '+4915123456789',
    From: '+4930123456',
    Body: 'Hallo € 👋',
    StatusCallback: 'https://vp.example.com/api/providers/sms/twilio/status?ref=913',
  });
});

it('a 4xx is Twilio refusing this message, with its code and sentence', async () => {
  next = {
    status: 400,
    body: { code: 21211, message: "The 'To' number +4915123456789 is not a valid phone number.", status: 400 },
  };
  await expect(provider().send(sms)).rejects.toEqual(
    new SmsProviderRefusal(
      "Twilio refused the message (error 21211): The 'To' number +4915123456789 is not a valid phone number.",
    ),
  );
});

it('a 5xx is Twilio being unavailable', async () => {
  next = { status: 503, body: { message: 'Service Unavailable' } };
  await expect(provider().send(sms)).rejects.toEqual(new SmsProviderRefusal('Twilio service temporarily unavailable'));
});

it('no answer in time is not a refusal: the caller cannot know whether it went out', async () => {
  next = 'hang';
  const failure = await provider(200)
    .send(sms)
    .then(
      () => null,
      (e: unknown) => e,
    );
  expect(failure).toBeInstanceOf(Error);
  expect(failure).not.toBeInstanceOf(SmsProviderRefusal);
});

describe('status callbacks', () => {
  const gate = new TwilioSmsStatusGate({ authToken: 'token', publicBaseUrl: 'https://vp.example.com/' });
  const path = '/api/providers/sms/twilio/status?ref=913';
  const url = 'https://vp.example.com/api/providers/sms/twilio/status?ref=913';
  const form = {
    AccountSid: 'AC0123456789abcdef0123456789abcdef',
    MessageSid: 'SM0123456789abcdef0123456789abcdef',
    SmsSid: 'SM0123456789abcdef0123456789abcdef',
    MessageStatus: 'undelivered',
    SmsStatus: 'undelivered',
    ErrorCode: '30003',
    From: '+4930123456',
    To: '+4915123456789',
    ApiVersion: '2010-04-01',
  };

  it('signs as Twilio documents it (the example of its security page)', () => {
    expect(
      twilioSignature('12345', 'https://mycompany.com/myapp.php?foo=1&bar=2', {
        CallSid: 'CA1234567890ABCDE',
        Caller: '+12349013030',
        Digits: '1234',
        From: '+12349013030',
        To: '+18005551212',
      }),
    ).toBe('0/KCTR6DLpKmkAf8muzZqo1nDgQ=');
  });

  it('reads a validly signed report', () => {
    expect(gate.open(path, form, twilioSignature('token', url, form))).toEqual({
      reference: 913,
      providerMessageId: 'SM0123456789abcdef0123456789abcdef',
      status: 'undelivered',
      errorCode: '30003',
      errorMessage: null,
    });
  });

  it('refuses a forged, missing or re-aimed signature', () => {
    const signed = twilioSignature('token', url, form);
    expect(gate.open(path, form, null)).toBeNull();
    expect(gate.open(path, form, twilioSignature('other-token', url, form))).toBeNull();
    expect(gate.open(path, { ...form, MessageStatus: 'delivered' }, signed)).toBeNull();
    // The same signed form presented for another message.
    expect(gate.open(path.replace('ref=913', 'ref=914'), form, signed)).toBeNull();
    expect(gate.open(path, form, 'short')).toBeNull();
  });
});
