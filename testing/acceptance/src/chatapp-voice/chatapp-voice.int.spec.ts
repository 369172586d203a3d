import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';
import { createAssistant } from '@voiceplane/stand-ins/calls/fixtures';
import { eventually, verifyWithReference, WebhookReceiver } from '@voiceplane/stand-ins/fault/webhook-receiver';

/** Call permission, the preflight and chat-app calls through the composed app. */

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
let t: TestApi;
let receiver: WebhookReceiver;
let counter = 0;

beforeAll(async () => {
  t = await createTestApi();
  receiver = await WebhookReceiver.start();
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});
beforeEach(() => receiver.respondWith(() => ({ status: 200, body: 'ok' })));

const unique = () => `${String(Date.now() % 1_000_000).padStart(6, '0')}${String(++counter).padStart(2, '0')}`;
const customer = () => `+4917${unique()}`;

interface Scene {
  readonly user: TestUser;
  readonly senderId: number;
  readonly templateId: number;
  readonly phone: string;
}

/** A user with a calling-enabled sender whose assistant answers, a request template, and a customer who just wrote. */
async function scene(options: { senderPhone?: string; wrote?: boolean } = {}): Promise<Scene> {
  const user = await t.createUser({ balance: 25 });
  const assistantId = await createAssistant(t, user, { name: 'Concierge' });
  const sender = await t.http
    .post('/api/user/chatapp/senders')
    .set(user.auth)
    .send({
      phone_number: options.senderPhone ?? `+49151${unique()}`,
      display_name: 'Acme',
      assistant_id: assistantId,
      calling_enabled: true,
    });
  expect(sender.status).toBe(201);
  const senderId = sender.body.data.id as number;
  const template = await t.http
    .post(`/api/user/chatapp/senders/${senderId}/templates`)
    .set(user.auth)
    .send({ name: 'call_permission', language: 'en', category: 'voice_call_request', body_text: 'May we call you?' });
  expect(template.status).toBe(201);
  const phone = customer();
  if (options.wrote ?? true) {
    const wrote = await t.http
      .post('/api/sandbox/chatapp/inbound-message')
      .set(user.auth)
      .send({ sender_id: senderId, from_phone: phone, text: 'Hi' });
    expect(wrote.status).toBe(200);
  }
  return { user, senderId, templateId: template.body.data.id, phone };
}

const ask = (s: Scene, body: Record<string, unknown> = {}, prefix = 'chatapp') =>
  t.http
    .post(`/api/user/${prefix}/voice/request`)
    .set(s.user.auth)
    .send({ sender_id: s.senderId, recipient_phone: s.phone, ...body });
const preflight = (s: Scene) =>
  t.http
    .get(`/api/user/chatapp/voice/permission?sender_id=${s.senderId}&recipient_phone=${encodeURIComponent(s.phone)}`)
    .set(s.user.auth);
const call = (s: Scene, body: Record<string, unknown> = {}) =>
  t.http
    .post('/api/user/chatapp/voice/call')
    .set(s.user.auth)
    .send({ sender_id: s.senderId, recipient_phone: s.phone, ...body });
const reply = (s: Scene, response: string, isPermanent = false) =>
  t.http
    .post('/api/sandbox/chatapp/permission-reply')
    .set(s.user.auth)
    .send({ sender_id: s.senderId, customer_phone: s.phone, response, is_permanent: isPermanent });

describe('call permission', () => {
  it('asks once: the request template goes out free, the permission turns pending, a second ask waits a day', async () => {
    const s = await scene();
    const balance = (await t.http.get('/api/user/billing/balance').set(s.user.auth)).body.total_balance;

    const res = await ask(s, { recipient_name: 'Ann' }, 'whatsapp');

    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      sender_id: s.senderId,
      customer_phone: s.phone,
      conversation_id: expect.any(String),
      status: 'pending',
      is_permanent: false,
      can_call: false,
      can_request: false,
      session_open: true,
      expires_at: null,
      requested_at: expect.stringMatching(ISO),
      responded_at: null,
    });
    const outbox = await t.http.get(`/api/sandbox/chatapp/outbox?sender_id=${s.senderId}`).set(s.user.auth);
    expect(outbox.body.data[0]).toMatchObject({
      to: s.phone,
      type: 'template',
      template_id: s.templateId,
      body: 'May we call you?',
    });
    expect((await t.http.get('/api/user/billing/balance').set(s.user.auth)).body.total_balance).toBe(balance);

    const again = await ask(s);
    expect(again.status).toBe(422);
    expect(again.body).toEqual({
      success: false,
      error: 'A call permission request was already sent to this contact in the last 24 hours.',
      error_code: 'REQUEST_LIMIT',
      reason: 'daily_limit',
      retry_at: expect.stringMatching(ISO),
    });
  });

  it('reads the preflight with both actions, their reasons and limits', async () => {
    const s = await scene({ wrote: false });

    const res = await preflight(s);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      sender_id: s.senderId,
      customer_phone: s.phone,
      conversation_id: null,
      status: 'none',
      is_permanent: false,
      can_call: false,
      can_request: false,
      session_open: false,
      expires_at: null,
      requested_at: null,
      responded_at: null,
      actions: [
        {
          action_name: 'send_call_permission_request',
          can_perform: false,
          reason: 'session_closed',
          next_allowed_at: null,
          limits: [
            { time_period: 'PT24H', max_allowed: 1, current_usage: 0, limit_expiration_time: null },
            { time_period: 'P7D', max_allowed: 2, current_usage: 0, limit_expiration_time: null },
          ],
        },
        {
          action_name: 'start_call',
          can_perform: false,
          reason: 'no_permission',
          next_allowed_at: null,
          limits: [{ time_period: 'PT5M', max_allowed: 3, current_usage: 0, limit_expiration_time: null }],
        },
      ],
    });
  });

  it('refuses in the chat-app family, changing nothing', async () => {
    const s = await scene();
    const stranger = await t.createUser();
    const region = await scene({ senderPhone: `+1415${unique().slice(0, 7)}` });

    const foreign = await t.http
      .post('/api/user/chatapp/voice/request')
      .set(stranger.auth)
      .send({ sender_id: s.senderId, recipient_phone: s.phone });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({
      success: false,
      error: 'Sender not found or does not belong to you',
      error_code: 'SENDER_NOT_FOUND',
    });
    const badPhone = await ask(s, { recipient_phone: '0151 1234' });
    expect(badPhone.body).toEqual({
      success: false,
      error: 'Invalid phone number format. Use E.164 format (e.g., +14155551234).',
      error_code: 'INVALID_PHONE',
    });
    const missing = await t.http
      .post('/api/user/chatapp/voice/request')
      .set(s.user.auth)
      .set('Content-Type', 'application/json')
      .send('');
    expect(missing.status).toBe(422);
    expect(missing.body).toMatchObject({
      success: false,
      error_code: 'VALIDATION_ERROR',
      errors: { sender_id: expect.any(Array), recipient_phone: expect.any(Array) },
    });
    const wrongTemplate = await ask(s, { template_id: s.templateId + 1000 });
    expect(wrongTemplate.body).toEqual({
      success: false,
      error: 'No approved Voice Call Request template found for this sender.',
      error_code: 'TEMPLATE_NOT_FOUND',
    });
    const us = await ask(region);
    expect(us.body).toEqual({
      success: false,
      error: 'Business-initiated calls are not available for senders in US.',
      error_code: 'REGION_NOT_SUPPORTED',
    });

    expect((await preflight(s)).body).toMatchObject({ status: 'none', can_request: true });
    const outbox = await t.http.get(`/api/sandbox/chatapp/outbox?sender_id=${s.senderId}`).set(s.user.auth);
    expect(outbox.body.data.filter((m: { type: string }) => m.type === 'template')).toEqual([]);
  });

  it('sandbox permission reply: the customer grants (the voice webhook gets call_permission_granted), then revokes; a revoke without a grant is refused', async () => {
    const s = await scene();
    await t.http
      .put('/api/user/chatapp/voice/webhook')
      .set(s.user.auth)
      .send({ webhook_url: receiver.url(`/voice-${s.senderId}`) });
    expect((await reply(s, 'revoke')).body).toEqual({ message: 'Only a granted permission can be revoked.' });
    await ask(s);

    const granted = await reply(s, 'accept');

    expect(granted.status).toBe(200);
    expect(granted.body).toEqual({
      ok: true,
      permission: expect.objectContaining({
        status: 'granted',
        is_permanent: false,
        can_call: true,
        expires_at: expect.stringMatching(ISO),
      }),
    });
    await eventually(
      async () => receiver.received.some((r) => r.path === `/voice-${s.senderId}`),
      'call_permission_granted',
    );
    const hook = receiver.received.find((r) => r.path === `/voice-${s.senderId}`)!;
    expect(JSON.parse(hook.body)).toMatchObject({
      event: 'call_permission_granted',
      sender_id: s.senderId,
      customer_phone: s.phone,
      conversation_id: expect.any(String),
    });
    expect((await reply(s, 'revoke')).body).toEqual({
      ok: true,
      permission: expect.objectContaining({ status: 'revoked', can_call: false }),
    });
  });
});

describe('chat-app calls', () => {
  it('end to end: template send → customer reply → request → grant → signed call_permission_granted → call placed → signed call_started', async () => {
    const s = await scene({ wrote: false });
    const secret = (await t.http.get('/api/user/webhooks/signing-secret').set(s.user.auth)).body.secret as string;
    await t.http
      .put('/api/user/chatapp/voice/webhook')
      .set(s.user.auth)
      .send({ webhook_url: receiver.url(`/e2e-${s.senderId}`) });
    const hello = await t.http
      .post(`/api/user/chatapp/senders/${s.senderId}/templates`)
      .set(s.user.auth)
      .send({ name: 'hello', language: 'en', category: 'utility', body_text: 'Hello from Acme.' });
    const sent = await t.http
      .post('/api/user/chatapp/send')
      .set(s.user.auth)
      .send({ sender_id: s.senderId, template_id: hello.body.data.id, recipient_phone: s.phone });
    expect(sent.status).toBe(200);
    expect((await ask(s)).body).toMatchObject({ success: false, error_code: 'SESSION_CLOSED' });
    await t.http
      .post('/api/sandbox/chatapp/inbound-message')
      .set(s.user.auth)
      .send({ sender_id: s.senderId, from_phone: s.phone, text: 'Sure, call me' });

    expect((await ask(s)).body).toMatchObject({
      success: true,
      status: 'pending',
      conversation_id: expect.any(String),
    });
    expect((await reply(s, 'accept')).body.permission).toMatchObject({ status: 'granted', can_call: true });
    await eventually(
      async () =>
        receiver.received.some((r) => r.path === `/e2e-${s.senderId}` && r.eventType === 'call_permission_granted'),
      'the grant',
    );
    const granted = receiver.received.find(
      (r) => r.path === `/e2e-${s.senderId}` && r.eventType === 'call_permission_granted',
    )!;
    expect(verifyWithReference(secret, granted)).toMatchObject({
      event: 'call_permission_granted',
      sender_id: s.senderId,
      customer_phone: s.phone,
    });

    expect((await call(s)).body).toEqual({
      success: true,
      status: 'queued',
      sender_id: s.senderId,
      customer_phone: s.phone,
    });
    await eventually(
      async () => receiver.received.some((r) => r.path === `/e2e-${s.senderId}` && r.eventType === 'call_started'),
      'call_started',
    );
    const started = receiver.received.find((r) => r.path === `/e2e-${s.senderId}` && r.eventType === 'call_started')!;
    expect(verifyWithReference(secret, started)).toMatchObject({
      event: 'call_started',
      sender_id: s.senderId,
      customer_phone: s.phone,
      call_id: expect.any(Number),
    });
  });

  it('refuses without permission, then queues a call the worker places; call_started arrives and connecting resets the ask counters', async () => {
    const s = await scene();
    await t.http
      .put('/api/user/chatapp/voice/webhook')
      .set(s.user.auth)
      .send({ webhook_url: receiver.url(`/calls-${s.senderId}`) });
    const refused = await call(s);
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({
      success: false,
      error: 'The customer has not granted call permission.',
      error_code: 'NO_PERMISSION',
    });
    await ask(s);
    await reply(s, 'accept', true);

    const queued = await call(s, { variables: { order: 'A-1001' } });

    expect(queued.status).toBe(200);
    expect(queued.body).toEqual({ success: true, status: 'queued', sender_id: s.senderId, customer_phone: s.phone });
    let callId = 0;
    await eventually(async () => {
      const list = await t.http.get('/api/user/calls?channel=chatapp').set(s.user.auth);
      const found = list.body.data.find((c: { status: string }) => c.status === 'ringing');
      callId = found?.id ?? 0;
      return callId > 0;
    }, 'the chat-app call to ring');
    const detail = (await t.http.get(`/api/user/calls/${callId}`).set(s.user.auth)).body.data;
    expect(detail).toMatchObject({
      channel: 'chatapp',
      direction: 'outbound',
      customer_phone: s.phone,
      sender_id: s.senderId,
      variables: { order: 'A-1001' },
    });
    await eventually(
      async () => receiver.received.some((r) => r.path === `/calls-${s.senderId}` && r.eventType === 'call_started'),
      'call_started',
    );
    const started = receiver.received.find((r) => r.path === `/calls-${s.senderId}` && r.eventType === 'call_started')!;
    expect(JSON.parse(started.body)).toEqual({
      event: 'call_started',
      sender_id: s.senderId,
      customer_phone: s.phone,
      conversation_id: detail.conversation_id,
      call_id: callId,
      timestamp: expect.stringMatching(ISO),
    });

    expect((await t.http.post(`/api/sandbox/calls/${callId}/answer`).set(s.user.auth)).status).toBe(200);
    await eventually(
      async () => (await preflight(s)).body.actions[0].limits[0].current_usage === 0,
      'the ask counters to reset',
    );
  });

  it('holds 3 attempts per contact in 5 minutes and validates variables', async () => {
    const s = await scene();
    await reply(s, 'accept', true);
    for (let i = 0; i < 3; i++) expect((await call(s)).status).toBe(200);

    const fourth = await call(s);

    expect(fourth.status).toBe(429);
    expect(fourth.body).toEqual({
      success: false,
      error: 'Too many call attempts to this contact. Try again later.',
      error_code: 'CONTACT_RATE_LIMIT',
      retry_after: expect.any(Number),
    });
    expect(fourth.headers['retry-after']).toBe(String(fourth.body.retry_after));
    const tooMany = await call(s, {
      recipient_phone: customer(),
      variables: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`v${i}`, 'x'])),
    });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body).toEqual({
      success: false,
      error: 'The variables may not have more than 20 items.',
      error_code: 'VALIDATION_ERROR',
      errors: { variables: ['The variables may not have more than 20 items.'] },
    });
  });
});

describe('hostile input on the voice routes', () => {
  it("answers each family's 4xx for NUL bytes, huge or malformed ids, a null body and %ff, and changes nothing", async () => {
    const s = await scene();
    const answers = await Promise.all([
      t.http
        .post('/api/user/chatapp/voice/request')
        .set(s.user.auth)
        .send({ sender_id: s.senderId, recipient_phone: '+4917\u0000123' }),
      t.http
        .post('/api/user/chatapp/voice/request')
        .set(s.user.auth)
        .send({ sender_id: 1e300, recipient_phone: s.phone }),
      t.http.post('/api/user/chatapp/voice/call').set(s.user.auth).set('Content-Type', 'application/json').send('null'),
      t.http
        .post('/api/user/chatapp/voice/call')
        .set(s.user.auth)
        .send({ sender_id: '12abc', recipient_phone: s.phone, variables: [] }),
      t.http
        .get(`/api/user/chatapp/voice/permission?sender_id=%ff&recipient_phone=${encodeURIComponent(s.phone)}`)
        .set(s.user.auth),
      t.http
        .get('/api/user/chatapp/voice/permission?sender_id=99999999999999999999&recipient_phone=%2B1')
        .set(s.user.auth),
      t.http
        .put('/api/user/chatapp/voice/webhook')
        .set(s.user.auth)
        .send({ webhook_url: 'https://hooks.example.com/\u0000' }),
      t.http
        .post('/api/sandbox/chatapp/permission-reply')
        .set(s.user.auth)
        .send({ sender_id: s.senderId, customer_phone: s.phone, response: 'accept', is_permanent: 'yes' }),
    ]);

    for (const res of answers) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
    expect(answers.slice(0, 6).map((r) => r.body.error_code)).toEqual(Array(6).fill('VALIDATION_ERROR'));
    expect(answers[7].body).toMatchObject({ message: 'The given data was invalid.' });
    expect((await preflight(s)).body).toMatchObject({ status: 'none', requested_at: null });
    expect((await t.http.get('/api/user/chatapp/voice/webhook').set(s.user.auth)).body.webhook_url).toBeNull();
    expect((await t.http.get('/api/user/calls?channel=chatapp').set(s.user.auth)).body.data).toEqual([]);
  });
});
