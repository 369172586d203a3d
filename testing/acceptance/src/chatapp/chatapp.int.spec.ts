import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TOKENS } from '@voiceplane/application';
import { createTestApi, eventually, TestApi, TestUser } from '@voiceplane/test-env';
import { createAssistant } from '@voiceplane/stand-ins/calls/fixtures';

/** Chat-app senders, templates, sends, statuses, inbound messages and conversations through the composed app. */

const CUSTOMER = '+14155551234';
const AI_TEXT = 'Thanks for your message! (sandbox reply)';
let t: TestApi;
let owner: TestUser;
let stranger: TestUser;
let senderCounter = 0;

beforeAll(async () => {
  t = await createTestApi({ startBackground: false });
  owner = await t.createUser({ balance: 25 });
  stranger = await t.createUser({ balance: 25 });
});
afterAll(async () => t.close());

const phone = () =>
  `+49151${String(Date.now() % 1_000_000).padStart(6, '0')}${String(++senderCounter).padStart(2, '0')}`;
const code = (res: { body: { error_code?: string } }) => res.body.error_code;

async function sender(user: TestUser, fields: Record<string, unknown> = {}): Promise<number> {
  const res = await t.http
    .post('/api/user/chatapp/senders')
    .set(user.auth)
    .send({ phone_number: phone(), display_name: 'Acme Support', ...fields });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

async function template(
  user: TestUser,
  senderId: number,
  body = 'Hi {{1}}, your order {{2}} has shipped.',
  name = `t${++senderCounter}`,
): Promise<number> {
  const res = await t.http
    .post(`/api/user/chatapp/senders/${senderId}/templates`)
    .set(user.auth)
    .send({ name, language: 'en', category: 'utility', body_text: body });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

const send = (user: TestUser, body: Record<string, unknown>, path = 'chatapp') =>
  t.http.post(`/api/user/${path}/send`).set(user.auth).send(body);
const freeform = (user: TestUser, body: Record<string, unknown>) =>
  t.http.post('/api/user/chatapp/send-freeform').set(user.auth).send(body);
const balanceOf = async (user: TestUser) =>
  (await t.http.get('/api/user/billing/balance').set(user.auth)).body.total_balance as number;

describe('senders and templates', () => {
  it('registers an online sandbox sender, lists and gets it, also under /whatsapp', async () => {
    const number = phone();
    const res = await t.http
      .post('/api/user/whatsapp/senders')
      .set(owner.auth)
      .send({ phone_number: number, display_name: 'Acme Support' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      data: expect.objectContaining({
        phone_number: number,
        status: 'online',
        quality_rating: 'GREEN',
        messaging_limit: 1000,
        messaging_limit_formatted: '1,000 / 24hr',
        country_code: 'DE',
        assistant_id: null,
        calling_enabled: false,
        status_webhook_url: null,
        provider: 'sandbox',
      }),
    });
    expect(
      (await t.http.get('/api/user/chatapp/senders').set(owner.auth)).body.data.map((s: { id: number }) => s.id),
    ).toContain(res.body.data.id);
    expect((await t.http.get(`/api/user/chatapp/senders/${res.body.data.id}`).set(owner.auth)).body.data.id).toBe(
      res.body.data.id,
    );
    const again = await t.http
      .post('/api/user/chatapp/senders')
      .set(stranger.auth)
      .send({ phone_number: number, display_name: 'X' });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      success: false,
      error: 'A sender with this phone number already exists.',
      error_code: 'SENDER_EXISTS',
    });
  });

  it('answers the chat-app family for bad input and foreign senders', async () => {
    const bad = await t.http.post('/api/user/chatapp/senders').set(owner.auth).send({ phone_number: '123' });
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual(
      expect.objectContaining({
        success: false,
        error_code: 'VALIDATION_ERROR',
        errors: expect.objectContaining({ display_name: expect.any(Array) }),
      }),
    );
    const id = await sender(owner);
    const foreign = await t.http.get(`/api/user/chatapp/senders/${id}`).set(stranger.auth);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({
      success: false,
      error: 'Sender not found or does not belong to you',
      error_code: 'SENDER_NOT_FOUND',
    });
    expect((await t.http.get('/api/user/chatapp/senders/abc').set(owner.auth)).status).toBe(404);
    expect(code(await t.http.get('/api/user/chatapp/senders?status=weird').set(owner.auth))).toBe('VALIDATION_ERROR');
  });

  it('creates approved templates with their variables; duplicates are TEMPLATE_EXISTS; mixed placeholders are refused', async () => {
    const id = await sender(owner);
    const res = await t.http
      .post(`/api/user/chatapp/senders/${id}/templates`)
      .set(owner.auth)
      .send({ name: 'order_update', language: 'en', category: 'utility', body_text: 'Hi {{1}}, order {{2}}.' });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual(
      expect.objectContaining({
        sender_id: id,
        status: 'approved',
        variables: ['1', '2'],
        has_variables: true,
        rejection_reason: null,
      }),
    );
    const dup = await t.http
      .post(`/api/user/chatapp/senders/${id}/templates`)
      .set(owner.auth)
      .send({ name: 'order_update', language: 'en', category: 'utility', body_text: 'x' });
    expect(dup.status).toBe(409);
    expect(code(dup)).toBe('TEMPLATE_EXISTS');
    const mixed = await t.http
      .post(`/api/user/chatapp/senders/${id}/templates`)
      .set(owner.auth)
      .send({ name: 'm', language: 'en', category: 'utility', body_text: '{{1}} {{name}}' });
    expect(mixed.status).toBe(422);
    expect(code(mixed)).toBe('VALIDATION_ERROR');
    expect((await t.http.get(`/api/user/chatapp/templates?sender_id=${id}`).set(owner.auth)).body.data).toHaveLength(1);
    expect(code(await t.http.get('/api/user/chatapp/templates').set(owner.auth))).toBe('VALIDATION_ERROR');
  });
});

describe('POST /send', () => {
  it('sends, charges the template price with a ledger entry referencing the chat-app message, and opens the window', async () => {
    const user = await t.createUser({ balance: 1 });
    const s = await sender(user);
    const tpl = await template(user, s);
    const res = await send(
      user,
      {
        sender_id: s,
        template_id: tpl,
        recipient_phone: CUSTOMER,
        recipient_name: 'Ann',
        variables: { 1: 'Ann', 2: 'A-1001' },
      },
      'whatsapp',
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      conversation_id: expect.any(Number),
      message_id: expect.any(Number),
      chatapp_message_id: expect.any(Number),
      message_sid: expect.stringMatching(/^SM[0-9a-f]{32}$/),
      status: 'queued',
    });
    expect(await balanceOf(user)).toBeCloseTo(0.95);
    const ledger = await t.http.get('/api/user/billing/ledger').set(user.auth);
    expect(ledger.body.data[0]).toEqual(
      expect.objectContaining({
        type: 'charge',
        amount: -0.05,
        reference: { type: 'chatapp_message', id: res.body.chatapp_message_id },
      }),
    );
    const outbox = await t.http.get(`/api/sandbox/chatapp/outbox?sender_id=${s}`).set(user.auth);
    expect(outbox.body.data[0]).toEqual(
      expect.objectContaining({
        message_sid: res.body.message_sid,
        type: 'template',
        body: 'Hi Ann, your order A-1001 has shipped.',
        template_id: tpl,
        to: CUSTOMER,
      }),
    );
    const session = await t.http
      .get(`/api/user/chatapp/session-status?sender_id=${s}&recipient_phone=%2B14155551234`)
      .set(user.auth);
    expect(session.body).toEqual(
      expect.objectContaining({
        success: true,
        has_conversation: true,
        customer_name: 'Ann',
        window_opened_by: 'template',
      }),
    );
    expect(session.body.session_status).toEqual(expect.objectContaining({ is_open: true, minutes_remaining: 1439 }));
    const message = await t.http.get(`/api/user/chatapp/messages/${res.body.message_sid}`).set(user.auth);
    expect(message.body.data).toEqual(
      expect.objectContaining({ id: res.body.chatapp_message_id, status: 'queued', cost: 0.05, direction: 'outbound' }),
    );
  });

  async function fresh(balance: number) {
    const user = await t.createUser({ balance });
    const s = await sender(user);
    const tpl = await template(user, s);
    return {
      user,
      base: { sender_id: s, template_id: tpl, recipient_phone: CUSTOMER, variables: { 1: 'a', 2: 'b' } },
      s,
      tpl,
    };
  }

  it('answers every refusal at its status, in the contract order, and stores nothing; the sixth send in a second is 429', async () => {
    const { user, base } = await fresh(5);
    expect(code(await send(user, { template_id: base.template_id }))).toBe('VALIDATION_ERROR');
    const missingSender = await send(user, { ...base, sender_id: 999999 });
    expect([missingSender.status, code(missingSender)]).toEqual([404, 'SENDER_NOT_FOUND']);
    const missingTemplate = await send(user, { ...base, template_id: 999999, recipient_phone: 'bad' });
    expect([missingTemplate.status, code(missingTemplate)]).toEqual([404, 'TEMPLATE_NOT_FOUND']);
    const badPhone = await send(user, { ...base, recipient_phone: '0049' });
    expect([badPhone.status, code(badPhone)]).toEqual([422, 'INVALID_PHONE']);
    const missingVars = await send(user, { ...base, variables: { 1: 'a' } });
    expect([missingVars.status, missingVars.body.error]).toEqual([422, 'Missing template variables: 2']);
    let limited = await send(user, base);
    // The five above used the second's quota, unless the window turned over in between (or the machine
    // is slow enough to send fewer than five a second): then a burst of six at once finds it spent.
    await eventually(async () => {
      if (limited.status === 429) return true;
      const burst = await Promise.all(Array.from({ length: 6 }, () => send(user, base)));
      limited = burst.find((r) => r.status === 429) ?? limited;
      return limited.status === 429;
    }, 'a send past the quota of 5 per second');
    expect(limited.body).toEqual({ success: false, error: 'Too many requests.', retry_after: expect.any(Number) });
    expect(limited.headers['retry-after']).toBeDefined();

    const poor = await fresh(0.04);
    const refused = await send(poor.user, poor.base);
    expect([refused.status, refused.body]).toEqual([
      402,
      { success: false, error: 'Insufficient balance to send this message.', error_code: 'INSUFFICIENT_BALANCE' },
    ]);
    expect((await t.http.get('/api/user/conversations').set(poor.user.auth)).body.data).toEqual([]);

    const held = await fresh(5);
    await t.http
      .put(`/api/sandbox/chatapp/templates/${held.tpl}/status`)
      .set(held.user.auth)
      .send({ status: 'pending' })
      .expect(200);
    const pending = await send(held.user, held.base);
    expect([pending.status, pending.body.error]).toEqual([422, 'Template is not approved. Current status: pending']);
    await t.http
      .put(`/api/sandbox/chatapp/senders/${held.s}/status`)
      .set(held.user.auth)
      .send({ status: 'offline' })
      .expect(200);
    const offline = await send(held.user, held.base);
    expect([offline.status, offline.body.error]).toEqual([422, 'Sender is not online. Current status: offline']);
  });

  it('a provider refusal (sandbox fault chatapp_send) is SEND_FAILED and stores and charges nothing', async () => {
    const user = await t.createUser({ balance: 1 });
    const s = await sender(user);
    const tpl = await template(user, s, 'Hello');
    await t.http.post('/api/sandbox/faults').set(user.auth).send({ kind: 'chatapp_send', target_id: s }).expect(200);
    const failed = await send(user, { sender_id: s, template_id: tpl, recipient_phone: CUSTOMER });
    expect([failed.status, code(failed)]).toEqual([422, 'SEND_FAILED']);
    expect(failed.body.error).toMatch(/^The chat app rejected the message: /);
    expect(await balanceOf(user)).toBe(1);
    expect((await t.http.get('/api/user/conversations').set(user.auth)).body.data).toEqual([]);
    expect((await send(user, { sender_id: s, template_id: tpl, recipient_phone: CUSTOMER })).status).toBe(200);
  });

  it('50 concurrent sends against a balance covering 20: exactly 20 succeed and the balance ends at zero', async () => {
    const user = await t.createUser({ balance: 1 });
    const s = await sender(user);
    const tpl = await template(user, s, 'Hello');
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        t.runtime.container.get(TOKENS.SendTemplateMessage).execute({
          userId: user.id,
          senderId: s,
          templateId: tpl,
          recipientPhone: `+1415555${String(1000 + i)}`,
          recipientName: null,
          variables: {},
          source: 'api',
        }),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(20);
    expect(await balanceOf(user)).toBe(0);
  });
});

describe('POST /send-freeform and the window', () => {
  it('needs an open window; the sandbox expire-window closes it; a template reopens it; an offline sender is 503', async () => {
    const user = await t.createUser({ balance: 5 });
    const s = await sender(user);
    const none = await freeform(user, { sender_id: s, recipient_phone: CUSTOMER, message: 'hi' });
    expect(none.status).toBe(403);
    expect(none.body).toEqual({
      success: false,
      error: 'Session expired. Send a template message to reopen the conversation.',
      error_code: 'SESSION_EXPIRED',
      session_status: {
        is_open: false,
        can_send_freeform: false,
        requires_template: true,
        message: 'No conversation exists with this recipient. Send a template message first.',
        expired_at: null,
      },
    });
    expect(code(await freeform(user, { sender_id: s, recipient_phone: CUSTOMER }))).toBe('VALIDATION_ERROR');
    const tpl = await template(user, s, 'Hello');
    await send(user, { sender_id: s, template_id: tpl, recipient_phone: CUSTOMER }).expect(200);
    const ok = await freeform(user, { sender_id: s, recipient_phone: CUSTOMER, message: 'Your parcel is on its way.' });
    expect(ok.status).toBe(200);
    expect(ok.body.session_status).toEqual(expect.objectContaining({ is_open: true }));
    expect(await balanceOf(user)).toBeCloseTo(4.94);
    const expired = await t.http
      .post('/api/sandbox/chatapp/expire-window')
      .set(user.auth)
      .send({ sender_id: s, customer_phone: CUSTOMER });
    expect(expired.body.session_status).toEqual(
      expect.objectContaining({ is_open: false, expired_at: expect.any(String) }),
    );
    expect(code(await freeform(user, { sender_id: s, recipient_phone: CUSTOMER, message: 'hi' }))).toBe(
      'SESSION_EXPIRED',
    );
    // Another user: this one's five sends of the second are used up.
    const other = await t.createUser({ balance: 5 });
    const offlineSender = await sender(other);
    await t.http
      .put(`/api/sandbox/chatapp/senders/${offlineSender}/status`)
      .set(other.auth)
      .send({ status: 'offline' })
      .expect(200);
    const offline = await freeform(other, { sender_id: offlineSender, recipient_phone: CUSTOMER, message: 'hi' });
    expect([offline.status, code(offline)]).toEqual([503, 'SENDER_OFFLINE']);
  });
});

describe('inbound messages, AI replies and takeover', () => {
  it('answers with the sandbox AI while AI is on; disable-ai stops it, enable-ai resumes it', async () => {
    const user = await t.createUser({ balance: 5 });
    const assistant = await createAssistant(t, user);
    const activated = await t.http.post(`/api/user/assistant/${assistant}/activate`).set(user.auth);
    expect(activated.status).toBe(200);
    const s = await sender(user, { assistant_id: assistant });
    const first = await t.http
      .post('/api/sandbox/chatapp/inbound-message')
      .set(user.auth)
      .send({ sender_id: s, from_phone: CUSTOMER, text: 'Where is my order?', customer_name: 'Ann' });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      ok: true,
      conversation_id: expect.any(Number),
      conversation_uuid: expect.any(String),
      message_id: expect.any(Number),
      ai_reply: { message_id: expect.any(Number), body: AI_TEXT, status: 'queued' },
    });
    const uuid = first.body.conversation_uuid;
    const disabled = await t.http
      .post(`/api/automate/conversations/${uuid}/disable-ai`)
      .set(user.auth)
      .set('Content-Type', 'application/json');
    expect(disabled.body).toEqual({ status: true, ai_enabled: false });
    const quiet = await t.http
      .post('/api/sandbox/chatapp/inbound-message')
      .set(user.auth)
      .send({ sender_id: s, from_phone: CUSTOMER, text: 'Hello?' });
    expect(quiet.body).toEqual(expect.objectContaining({ ai_reply: null, ai_reply_skipped: 'ai_disabled' }));
    expect(
      (await t.http.post(`/api/user/conversations/${first.body.conversation_id}/enable-ai`).set(user.auth)).body,
    ).toEqual({ status: true, ai_enabled: true });
    const again = await t.http
      .post('/api/sandbox/chatapp/inbound-message')
      .set(user.auth)
      .send({ sender_id: s, from_phone: CUSTOMER, text: 'Still there?' });
    expect(again.body.ai_reply).toEqual({ message_id: expect.any(Number), body: AI_TEXT, status: 'queued' });
    const plain = await sender(user);
    const unanswered = await t.http
      .post('/api/sandbox/chatapp/inbound-message')
      .set(user.auth)
      .send({ sender_id: plain, from_phone: CUSTOMER, text: 'Anyone?' });
    expect(unanswered.body).toEqual(expect.objectContaining({ ai_reply: null, ai_reply_skipped: 'no_assistant' }));

    // The alias takes the integer id too, as the MCP server's disable_conversation_ai may send it; a stranger's or unknown id is the family's 404.
    const byId = await t.http
      .post(`/api/automate/conversations/${first.body.conversation_id}/disable-ai`)
      .set(user.auth);
    expect([byId.status, byId.body]).toEqual([200, { status: true, ai_enabled: false }]);
    const restored = await t.http
      .post(`/api/automate/conversations/${first.body.conversation_id}/enable-ai`)
      .set(user.auth);
    expect([restored.status, restored.body]).toEqual([200, { status: true, ai_enabled: true }]);
    const stranger = await t.createUser();
    for (const [who, id] of [
      [stranger, first.body.conversation_id],
      [user, 999_999_999],
    ] as const) {
      const miss = await t.http.post(`/api/automate/conversations/${id}/disable-ai`).set(who.auth);
      expect([miss.status, miss.body]).toEqual([404, { status: false, error: 'Conversation not found' }]);
    }

    const conversation = await t.http.get(`/api/user/conversations/${uuid}`).set(user.auth);
    expect(conversation.body).toEqual({
      status: true,
      data: expect.objectContaining({
        uuid,
        status: 'open',
        ai_enabled: true,
        message_count: 5,
        customer_name: 'Ann',
        assistant_id: assistant,
      }),
    });
    const page = await t.http.get(`/api/user/conversations/${uuid}/messages?per_page=2`).set(user.auth);
    expect(page.body.data.map((m: { source: string }) => m.source)).toEqual(['ai', 'customer']);
    expect(page.body.prev_cursor).toBeNull();
    const next = await t.http
      .get(`/api/user/conversations/${uuid}/messages?per_page=2&cursor=${page.body.next_cursor}`)
      .set(user.auth);
    expect(next.body.data.map((m: { body: string }) => m.body)).toEqual(['Hello?', AI_TEXT]);
    const back = await t.http
      .get(`/api/user/conversations/${uuid}/messages?per_page=2&cursor=${next.body.prev_cursor}`)
      .set(user.auth);
    expect(back.body).toEqual({ ...page.body, data: page.body.data });
    const conversations = await t.http.get(`/api/user/conversations?per_page=1&sender_id=${s}`).set(user.auth);
    expect(conversations.body).toEqual(expect.objectContaining({ next_cursor: null, prev_cursor: null, per_page: 1 }));
    const forged = Buffer.from(JSON.stringify({ i: 5, b: 2 })).toString('base64url');
    expect((await t.http.get(`/api/user/conversations/${uuid}/messages?cursor=${forged}`).set(user.auth)).body).toEqual(
      { status: false, error: 'The given data was invalid.', errors: { cursor: ['The selected cursor is invalid.'] } },
    );
    expect((await t.http.get('/api/user/conversations?cursor=%%%').set(user.auth)).status).toBe(422);
    expect((await t.http.get(`/api/user/conversations/${uuid}`).set(stranger.auth)).body).toEqual({
      status: false,
      error: 'Conversation not found',
    });

    const ended = await t.http.post(`/api/sandbox/conversations/${uuid}/end-now`).set(user.auth);
    expect(ended.body.conversation).toEqual(expect.objectContaining({ status: 'ended', ended_count: 1 }));
  });

  it('the sandbox message status moves a delivery status forward only and records the history', async () => {
    const user = await t.createUser({ balance: 5 });
    const s = await sender(user);
    const tpl = await template(user, s, 'Hello');
    const sent = await send(user, { sender_id: s, template_id: tpl, recipient_phone: CUSTOMER });
    const sid = sent.body.message_sid;
    await t.http
      .post(`/api/sandbox/chatapp/messages/${sid}/status`)
      .set(user.auth)
      .send({ status: 'delivered' })
      .expect(200);
    const late = await t.http
      .post(`/api/sandbox/chatapp/messages/${sid}/status`)
      .set(user.auth)
      .send({ status: 'sent' });
    expect(late.body.data.status).toBe('delivered');
    expect(late.body.data.status_history.map((h: { status: string }) => h.status)).toEqual([
      'queued',
      'delivered',
      'sent',
    ]);
    expect((await t.http.get(`/api/user/chatapp/messages/${sid}`).set(stranger.auth)).body.error_code).toBe(
      'MESSAGE_NOT_FOUND',
    );
  });
});

describe('the template allowance', () => {
  it('pays for template sends until it is used up, then the price is charged', async () => {
    const user = await t.createUser({ balance: 1, plan: { included_template_messages: 2 } });
    const s = await sender(user);
    const tpl = await template(user, s, 'Hello');
    const remaining = async () =>
      (await t.http.get('/api/user/billing/balance').set(user.auth)).body.included_template_messages_remaining;
    expect(await remaining()).toBe(2);
    for (const to of ['+14155550101', '+14155550102', '+14155550103'])
      await send(user, { sender_id: s, template_id: tpl, recipient_phone: to }).expect(200);
    expect(await remaining()).toBe(0);
    expect(await balanceOf(user)).toBeCloseTo(0.95);
    const charges = (await t.http.get('/api/user/billing/ledger?type=charge').set(user.auth)).body.data;
    expect(charges).toHaveLength(1);
  });
});

describe('freeform media', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/photo.png') {
        res.writeHead(200, { 'Content-Type': 'image/png' });
        res.end(Buffer.alloc(64));
        return;
      }
      if (req.url === '/voice.ogg') {
        res.writeHead(200, { 'Content-Type': 'audio/ogg' });
        res.end(Buffer.alloc(64));
        return;
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends media by its checked URL with the message as caption (none for audio); an unreadable URL is MEDIA_FETCH_FAILED', async () => {
    const user = await t.createUser({ balance: 5 });
    const s = await sender(user);
    await t.http
      .post('/api/sandbox/chatapp/inbound-message')
      .set(user.auth)
      .send({ sender_id: s, from_phone: CUSTOMER, text: 'Hi' })
      .expect(200);
    const image = await freeform(user, {
      sender_id: s,
      recipient_phone: CUSTOMER,
      message: 'Your receipt',
      media_url: `${base}/photo.png`,
    });
    expect(image.status).toBe(200);
    const audio = await freeform(user, {
      sender_id: s,
      recipient_phone: CUSTOMER,
      message: 'ignored',
      media_url: `${base}/voice.ogg`,
    });
    expect(audio.status).toBe(200);
    const outbox = (await t.http.get(`/api/sandbox/chatapp/outbox?sender_id=${s}`).set(user.auth)).body.data;
    expect(
      outbox.map((m: { type: string; body: string | null; media_url: string }) => [m.type, m.body, m.media_url]),
    ).toEqual([
      ['media', null, `${base}/voice.ogg`],
      ['media', 'Your receipt', `${base}/photo.png`],
    ]);
    const conversation = (await t.http.get('/api/user/conversations').set(user.auth)).body.data[0];
    const messages = (await t.http.get(`/api/user/conversations/${conversation.uuid}/messages`).set(user.auth)).body
      .data;
    expect(messages[0]).toEqual(expect.objectContaining({ type: 'media', media_type: 'audio', body: null }));
    expect(messages[1]).toEqual(expect.objectContaining({ type: 'media', media_type: 'image', body: 'Your receipt' }));
    const missing = await freeform(user, {
      sender_id: s,
      recipient_phone: CUSTOMER,
      message: 'x',
      media_url: `${base}/missing.pdf`,
    });
    expect([missing.status, missing.body]).toEqual([
      422,
      {
        success: false,
        error: 'The media file could not be fetched: the server answered 404',
        error_code: 'MEDIA_FETCH_FAILED',
      },
    ]);
    expect(await balanceOf(user)).toBeCloseTo(4.98);
  });
});

describe('the remaining refusals of freeform sends and session status', () => {
  async function openWindow(balance: number) {
    const user = await t.createUser({ balance });
    const s = await sender(user);
    await t.http
      .post('/api/sandbox/chatapp/inbound-message')
      .set(user.auth)
      .send({ sender_id: s, from_phone: CUSTOMER, text: 'Hi' })
      .expect(200);
    return { user, s };
  }

  it('freeform: INSUFFICIENT_BALANCE (402) and SEND_FAILED (422) store and charge nothing', async () => {
    const poor = await openWindow(0);
    const refused = await freeform(poor.user, { sender_id: poor.s, recipient_phone: CUSTOMER, message: 'hi' });
    expect([refused.status, refused.body]).toEqual([
      402,
      { success: false, error: 'Insufficient balance to send this message.', error_code: 'INSUFFICIENT_BALANCE' },
    ]);
    const faulty = await openWindow(1);
    await t.http.post('/api/sandbox/faults').set(faulty.user.auth).send({ kind: 'chatapp_send' }).expect(200);
    const failed = await freeform(faulty.user, { sender_id: faulty.s, recipient_phone: CUSTOMER, message: 'hi' });
    expect([failed.status, code(failed)]).toEqual([422, 'SEND_FAILED']);
    expect(await balanceOf(faulty.user)).toBe(1);
    const conversation = (await t.http.get('/api/user/conversations').set(faulty.user.auth)).body.data[0];
    expect(conversation.message_count).toBe(1);
  });

  it('session status: SENDER_NOT_FOUND, then INVALID_PHONE, VALIDATION_ERROR without a phone, the no-conversation object', async () => {
    const user = await t.createUser({ balance: 1 });
    const s = await sender(user);
    const get = (query: string) => t.http.get(`/api/user/whatsapp/session-status?${query}`).set(user.auth);
    const foreign = await get(`sender_id=999999&recipient_phone=bad`);
    expect([foreign.status, code(foreign)]).toEqual([404, 'SENDER_NOT_FOUND']);
    const bad = await get(`sender_id=${s}&recipient_phone=0049`);
    expect([bad.status, code(bad)]).toEqual([422, 'INVALID_PHONE']);
    expect(code(await get(`sender_id=${s}`))).toBe('VALIDATION_ERROR');
    const none = await get(`sender_id=${s}&recipient_phone=+14155550999`);
    expect(none.body).toEqual({
      success: true,
      has_conversation: false,
      session_status: {
        is_open: false,
        can_send_freeform: false,
        requires_template: true,
        message: 'No conversation exists with this recipient. Send a template message first.',
        expired_at: null,
      },
    });
  });
});
