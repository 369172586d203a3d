import { AnswerCallPermission, TOKENS } from '@voiceplane/application';
import { createTestApi, TestApi } from '@voiceplane/test-env';
import { eventually, WebhookReceiver } from '@voiceplane/stand-ins/fault/webhook-receiver';

let t: TestApi;
let receiver: WebhookReceiver;

beforeAll(async () => {
  t = await createTestApi();
  receiver = await WebhookReceiver.start();
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});
beforeEach(() => receiver.respondWith(() => ({ status: 200, body: 'ok' })));

const PATH = '/api/user/chatapp/voice/webhook';

describe('account voice webhook', () => {
  it('is null until set, set and read under both prefixes, and cleared with null', async () => {
    const user = await t.createUser();
    const other = await t.createUser();
    const url = receiver.url('/voice');

    expect((await t.http.get(PATH).set(user.auth)).body).toEqual({ success: true, webhook_url: null });
    const set = await t.http.put('/api/user/whatsapp/voice/webhook').set(user.auth).send({ webhook_url: url });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ success: true, webhook_url: url });
    expect((await t.http.get('/api/user/whatsapp/voice/webhook').set(user.auth)).body).toEqual({
      success: true,
      webhook_url: url,
    });
    expect((await t.http.get(PATH).set(other.auth)).body).toEqual({ success: true, webhook_url: null });

    const cleared = await t.http.put(PATH).set(user.auth).send({ webhook_url: null });
    expect(cleared.body).toEqual({ success: true, webhook_url: null });
    expect((await t.http.get(PATH).set(user.auth)).body.webhook_url).toBeNull();
  });

  it.each([
    ['a missing key', {}, 'The webhook url field is required.'],
    ['a non-URL', { webhook_url: 'not a url' }, 'The webhook url must be a valid URL.'],
    ['a number', { webhook_url: 42 }, 'The webhook url must be a string.'],
  ])('refuses %s in the chat-app family and keeps the URL', async (_case, body, message) => {
    const user = await t.createUser();
    await t.http
      .put(PATH)
      .set(user.auth)
      .send({ webhook_url: receiver.url('/kept') });

    const res = await t.http.put(PATH).set(user.auth).send(body);

    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      success: false,
      error: message,
      error_code: 'VALIDATION_ERROR',
      errors: { webhook_url: [message] },
    });
    expect((await t.http.get(PATH).set(user.auth)).body.webhook_url).toBe(receiver.url('/kept'));
  });

  it('answers 401 without a key', async () => {
    expect((await t.http.get(PATH)).status).toBe(401);
  });

  it('delivers call_permission_granted, signed, when a customer grants permission', async () => {
    const user = await t.createUser();
    await t.http
      .put(PATH)
      .set(user.auth)
      .send({ webhook_url: receiver.url('/granted') });
    const answers = t.runtime.container.get<AnswerCallPermission>(TOKENS.AnswerCallPermission);

    const answered = await answers.answer({
      userId: user.id,
      senderId: 9_001,
      customerPhone: '+4915112345678',
      conversationUuid: null,
      response: 'accept',
      permanent: true,
    });

    expect(answered.ok).toBe(true);
    await eventually(async () => receiver.received.some((r) => r.path === '/granted'), 'the grant to arrive');
    const hook = receiver.received.find((r) => r.path === '/granted')!;
    expect(hook.eventType).toBe('call_permission_granted');
    expect(JSON.parse(hook.body)).toMatchObject({
      event: 'call_permission_granted',
      sender_id: 9_001,
      customer_phone: '+4915112345678',
      conversation_id: null,
      permission: { status: 'granted', is_permanent: true, expires_at: null },
    });
  });
});
