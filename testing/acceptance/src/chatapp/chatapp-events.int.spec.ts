import pino from 'pino';
import {
  AiReplies,
  CallConfigurations,
  ConversationBrain,
  OutboundSends,
  ReceiveCustomerMessage,
  ReplyGenerator,
  TOKENS,
  InactivitySchedule,
} from '@voiceplane/application';
import { DEFAULT_CHATAPP_PRICES } from '@voiceplane/domain';
import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';
import { createAssistant } from '@voiceplane/stand-ins/calls/fixtures';

/** The chat app's events: `message_status` and `conversation_ended` deliveries, the inactivity end, and an AI reply overtaken by disable-ai. */

const CUSTOMER = '+14155559876';
let t: TestApi;
let counter = 0;

beforeAll(async () => {
  t = await createTestApi({ startBackground: false });
});
afterAll(async () => t.close());

const phone = () => `+49152${String(process.pid % 10_000).padStart(4, '0')}${String(++counter).padStart(4, '0')}`;

async function sender(user: TestUser, fields: Record<string, unknown> = {}): Promise<number> {
  const res = await t.http
    .post('/api/user/chatapp/senders')
    .set(user.auth)
    .send({ phone_number: phone(), display_name: 'Acme', ...fields });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

async function activeAssistant(user: TestUser, fields: Record<string, unknown> = {}): Promise<number> {
  const id = await createAssistant(t, user, fields);
  expect((await t.http.post(`/api/user/assistant/${id}/activate`).set(user.auth)).status).toBe(200);
  return id;
}

const deliveries = async (user: TestUser, eventType: string) =>
  (await t.http.get(`/api/user/webhooks/deliveries?event_type=${eventType}`).set(user.auth)).body.data as {
    id: string;
    status: string;
    source: object;
    subject: object;
    target_url: string;
  }[];

describe('message_status', () => {
  it("a status change creates a delivery to the sender's status_webhook_url; clearing the URL cancels it", async () => {
    const user = await t.createUser({ balance: 5 });
    const s = await sender(user, { status_webhook_url: 'https://hooks.example.com/status' });
    const tpl = (
      await t.http
        .post(`/api/user/chatapp/senders/${s}/templates`)
        .set(user.auth)
        .send({ name: 'hello', language: 'en', category: 'utility', body_text: 'Hello' })
    ).body.data.id;
    const sent = await t.http
      .post('/api/user/chatapp/send')
      .set(user.auth)
      .send({ sender_id: s, template_id: tpl, recipient_phone: CUSTOMER });
    await t.http
      .post(`/api/sandbox/chatapp/messages/${sent.body.message_sid}/status`)
      .set(user.auth)
      .send({ status: 'delivered' })
      .expect(200);
    // A late, lower status changes nothing and raises nothing.
    await t.http
      .post(`/api/sandbox/chatapp/messages/${sent.body.message_sid}/status`)
      .set(user.auth)
      .send({ status: 'sent' })
      .expect(200);
    const list = await deliveries(user, 'message_status');
    expect(list).toHaveLength(1);
    expect(list[0]).toEqual(
      expect.objectContaining({
        status: 'pending',
        target_url: 'https://hooks.example.com/status',
        source: { type: 'sender', id: s },
        subject: { type: 'chatapp_message', id: sent.body.chatapp_message_id },
      }),
    );
    const detail = await t.http.get(`/api/user/webhooks/deliveries/${list[0].id}`).set(user.auth);
    expect(detail.body.data.payload).toEqual(
      expect.objectContaining({
        event: 'message_status',
        chatapp_message_id: sent.body.chatapp_message_id,
        message_sid: sent.body.message_sid,
        status: 'delivered',
        direction: 'outbound',
        to: CUSTOMER,
        sender: expect.objectContaining({ id: s }),
        conversation_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      }),
    );
    await t.http.put(`/api/user/chatapp/senders/${s}`).set(user.auth).send({ status_webhook_url: null }).expect(200);
    expect((await deliveries(user, 'message_status'))[0].status).toBe('canceled');
  });
});

describe('end on inactivity', () => {
  async function conversationWith(user: TestUser, assistant: number) {
    const s = await sender(user, { assistant_id: assistant });
    const inbound = await t.http
      .post('/api/sandbox/chatapp/inbound-message')
      .set(user.auth)
      .send({ sender_id: s, from_phone: CUSTOMER, text: 'Hi' });
    return { s, id: inbound.body.conversation_id as number, uuid: inbound.body.conversation_uuid as string };
  }
  const ending = () => t.runtime.container.get(TOKENS.EndInactiveConversation);
  const moveBack = (id: number, minutes: number) =>
    t.db.dataSource.query(
      `UPDATE conversations SET last_message_at = now() - ($2 || ' minutes')::interval WHERE id = $1`,
      [id, minutes],
    );

  it('schedules one durable job per conversation at its deadline and ends it once, whoever runs it', async () => {
    const user = await t.createUser({ balance: 5 });
    const assistant = await activeAssistant(user, {
      conversation_inactivity_timeout: 10,
      conversation_ended_webhook_url: 'https://hooks.example.com/ended',
    });
    const c = await conversationWith(user, assistant);
    const jobs = await t.db.dataSource.query(`SELECT run_at FROM scheduled_jobs WHERE key = $1`, [
      `conversation-inactivity:${c.id}`,
    ]);
    expect(jobs).toHaveLength(1);

    expect((await ending().end(c.id))?.status).toBe('open');
    await moveBack(c.id, 11);
    const [a, b] = await Promise.all([ending().end(c.id), ending().end(c.id)]);
    expect([a?.status, b?.status]).toEqual(['ended', 'ended']);
    const conversation = await t.http.get(`/api/user/conversations/${c.uuid}`).set(user.auth);
    expect(conversation.body.data).toEqual(
      expect.objectContaining({ status: 'ended', ended_count: 1, ended_at: expect.any(String) }),
    );
    const ended = await deliveries(user, 'conversation_ended');
    expect(ended).toHaveLength(1);
    const payload = (await t.http.get(`/api/user/webhooks/deliveries/${ended[0].id}`).set(user.auth)).body.data.payload;
    expect(payload).toEqual(
      expect.objectContaining({
        id: c.id,
        conversation_id: c.uuid,
        assistant_id: assistant,
        type: 'chatapp',
        status: 'ended',
        customer_phone: CUSTOMER,
        formatted_transcript: 'Customer: Hi\nAI: Thanks for your message! (sandbox reply)',
        attachments: [],
        // The sandbox evaluator reads the transcript (post_call_evaluation is on by default) but extracts nothing.
        extracted_variables: { status: true, summary: 'Sandbox evaluation of 2 messages.' },
      }),
    );

    // A new message reopens it; a second end notifies only with conversation_ended_retrigger.
    await t.http
      .post('/api/sandbox/chatapp/inbound-message')
      .set(user.auth)
      .send({ sender_id: c.s, from_phone: CUSTOMER, text: 'Back again' })
      .expect(200);
    await t.http.post(`/api/sandbox/conversations/${c.uuid}/end-now`).set(user.auth).expect(200);
    expect(await deliveries(user, 'conversation_ended')).toHaveLength(1);
    await t.http
      .put(`/api/user/assistant/${assistant}`)
      .set(user.auth)
      .send({ conversation_ended_retrigger: true })
      .expect(200);
    await t.http
      .post('/api/sandbox/chatapp/inbound-message')
      .set(user.auth)
      .send({ sender_id: c.s, from_phone: CUSTOMER, text: 'Once more' })
      .expect(200);
    const third = await t.http.post(`/api/sandbox/conversations/${c.uuid}/end-now`).set(user.auth);
    expect(third.body.conversation).toEqual(expect.objectContaining({ status: 'ended', ended_count: 3 }));
    expect(await deliveries(user, 'conversation_ended')).toHaveLength(2);
  });
});

describe('an AI reply overtaken by disable-ai', () => {
  it('is discarded: nothing is sent, stored or charged', async () => {
    const user = await t.createUser({ balance: 5 });
    const assistant = await activeAssistant(user);
    const s = await sender(user, { assistant_id: assistant });
    const c = t.runtime.container;
    const uuidOf = async () => (await c.get(TOKENS.ConversationRepository).find(s, CUSTOMER))!.uuid;
    // The human takes over while the assistant is still thinking.
    const generator: ReplyGenerator = {
      async nextTurn() {
        await t.http
          .post(`/api/user/conversations/${await uuidOf()}/disable-ai`)
          .set(user.auth)
          .expect(200);
        return { content: 'Too late', toolCalls: [] };
      },
      evaluateConversation: async () => ({}),
    };
    const log = pino({ level: 'silent' });
    const replies = new AiReplies(
      {
        assistants: c.get(TOKENS.AssistantRepository),
        conversations: c.get(TOKENS.ConversationRepository),
        messages: c.get(TOKENS.ChatappMessageRepository),
      },
      { outbound: c.get(OutboundSends), provider: c.get(TOKENS.ChatappProvider), prices: DEFAULT_CHATAPP_PRICES },
      {
        brain: new ConversationBrain(generator, c.get(TOKENS.CatalogRepository), c.get(TOKENS.Clock), log),
        configurations: c.get(CallConfigurations),
        tools: c.get(TOKENS.InvokeToolForConversation),
        repliesOn: true,
      },
      c.get(TOKENS.Clock),
      log,
    );
    const receive = new ReceiveCustomerMessage(
      {
        uow: c.get(TOKENS.UnitOfWork),
        conversations: c.get(TOKENS.ConversationRepository),
        messages: c.get(TOKENS.ChatappMessageRepository),
        outbox: c.get(TOKENS.Outbox),
      },
      { inactivity: c.get(InactivitySchedule), replies, media: c.get(TOKENS.InboundMediaDownloads) },
      c.get(TOKENS.Ids),
      c.get(TOKENS.Clock),
    );
    const received = await receive.execute({
      sender: (await c.get(TOKENS.SenderRepository).findOwned(user.id, s))!,
      customerPhone: CUSTOMER,
      customerName: null,
      text: 'Hello',
      media: null,
      providerMessageId: null,
    });
    expect(received.aiReply).toEqual({ reply: null, skipped: 'ai_disabled' });
    const messages = await t.http.get(`/api/user/conversations/${await uuidOf()}/messages`).set(user.auth);
    expect(messages.body.data.map((m: { source: string }) => m.source)).toEqual(['customer']);
    expect((await t.http.get('/api/user/billing/balance').set(user.auth)).body.total_balance).toBe(5);
    expect((await t.http.get(`/api/sandbox/chatapp/outbox?sender_id=${s}`).set(user.auth)).body.data).toEqual([]);
  });

  it('a reply the balance cannot pay for is stored as a failed message and not sent', async () => {
    const user = await t.createUser({ balance: 0 });
    const assistant = await activeAssistant(user);
    const s = await sender(user, { assistant_id: assistant });
    const inbound = await t.http
      .post('/api/sandbox/chatapp/inbound-message')
      .set(user.auth)
      .send({ sender_id: s, from_phone: CUSTOMER, text: 'Hi' });
    // The answer says what was stored: a failed reply, not one that went out.
    expect(inbound.body.ai_reply).toEqual({
      message_id: expect.any(Number),
      body: 'Thanks for your message! (sandbox reply)',
      status: 'failed',
      error_code: 'INSUFFICIENT_BALANCE',
    });
    const messages = await t.http
      .get(`/api/user/conversations/${inbound.body.conversation_uuid}/messages`)
      .set(user.auth);
    expect(messages.body.data[0]).toEqual(
      expect.objectContaining({
        source: 'ai',
        status: 'failed',
        error_code: 'INSUFFICIENT_BALANCE',
        message_sid: null,
      }),
    );
    expect((await t.http.get(`/api/sandbox/chatapp/outbox?sender_id=${s}`).set(user.auth)).body.data).toEqual([]);
  });
});
