import { AUTOMATION_CONVERSATION_EVENTS_CONSUMER, TOKENS } from '@voiceplane/application';
import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';
import { WebhookReceiver } from '@voiceplane/stand-ins/fault/webhook-receiver';
import { createAssistant } from '@voiceplane/stand-ins/calls/fixtures';

/**
 * `conversation.ended` as an automation trigger: the `conversation_webhook_forward` template tests
 * with a sample conversation, then forwards each real end of a chat conversation of its assistant,
 * once per end however often the event is delivered.
 */

const CUSTOMER = '+14155559877';
let t: TestApi;
let receiver: WebhookReceiver;
let senders = 0;

beforeAll(async () => {
  t = await createTestApi({ startBackground: false });
  receiver = await WebhookReceiver.start();
  receiver.respondWith(() => ({ status: 200, body: '{}' }));
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

async function deliverEnds(conversationId: number): Promise<number> {
  const consumer = t.runtime.container
    .getAll(TOKENS.EventConsumer)
    .find((c) => c.options.consumer === AUTOMATION_CONVERSATION_EVENTS_CONSUMER);
  const rows = await t.db.dataSource.query(
    `SELECT id, topic, payload, occurred_at FROM outbox_events WHERE topic = 'conversation.ended' AND (payload->'conversation'->>'id')::bigint = $1`,
    [conversationId],
  );
  for (const row of rows) {
    const message = {
      id: row.id,
      topic: row.topic,
      occurredAt: new Date(row.occurred_at).toISOString(),
      payload: row.payload,
    };
    await consumer!.handle(message);
    await consumer!.handle(message);
  }
  return rows.length;
}

async function chatConversation(
  user: TestUser,
  assistant: number,
): Promise<{ id: number; uuid: string; sender: number }> {
  const sender = await t.http
    .post('/api/user/chatapp/senders')
    .set(user.auth)
    .send({
      phone_number: `+49153${String(process.pid % 10_000).padStart(4, '0')}${String(++senders).padStart(4, '0')}`,
      display_name: 'Acme',
      assistant_id: assistant,
    });
  expect(sender.status).toBe(201);
  const inbound = await t.http
    .post('/api/sandbox/chatapp/inbound-message')
    .set(user.auth)
    .send({ sender_id: sender.body.data.id, from_phone: CUSTOMER, text: 'Where is my order?' });
  expect(inbound.status).toBe(200);
  return { id: inbound.body.conversation_id, uuid: inbound.body.conversation_uuid, sender: sender.body.data.id };
}

describe('conversation_webhook_forward', () => {
  it('tests with the sample conversation, then forwards each end of a conversation of its assistant once', async () => {
    const user = await t.createUser({ balance: 5 });
    const assistant = await createAssistant(t, user);
    await t.http.post(`/api/user/assistant/${assistant}/activate`).set(user.auth).expect(200);
    const template = (await t.http.get('/api/user/automate/templates/conversation_webhook_forward').set(user.auth)).body
      .data;
    expect(template).toMatchObject({
      trigger: { kind: 'trigger.assistant_event', event: 'conversation.ended' },
      binding_type: 'assistant_event',
      steps: ['conversation_ended_trigger', 'forward_webhook'],
    });

    const applied = await t.http
      .post('/api/user/automate/templates/conversation_webhook_forward')
      .set(user.auth)
      .send({ assistant_id: assistant, params: { url: receiver.url('/conversations'), include_transcript: false } });
    expect(applied.status).toBe(201);
    expect(applied.body).toMatchObject({
      status: 'active',
      binding: { type: 'assistant_event', assistant_id: assistant, bound: true },
      response: { status_code: 200 },
    });
    const sample = JSON.parse(receiver.received.filter((r) => r.path === '/conversations').at(-1)!.body);
    expect(sample).toMatchObject({ id: 0, assistant_id: assistant, type: 'chatapp', status: 'ended', test: true });
    expect(sample).not.toHaveProperty('transcript');
    expect(sample).not.toHaveProperty('formatted_transcript');

    const conversation = await chatConversation(user, assistant);
    await t.http.post(`/api/sandbox/conversations/${conversation.uuid}/end-now`).set(user.auth).expect(200);
    expect(await deliverEnds(conversation.id)).toBe(1);
    const forwarded = receiver.received
      .filter((r) => r.path === '/conversations')
      .slice(1)
      .map((r) => JSON.parse(r.body));
    expect(forwarded).toEqual([
      expect.objectContaining({
        id: conversation.id,
        conversation_id: conversation.uuid,
        assistant_id: assistant,
        status: 'ended',
        customer_phone: CUSTOMER,
      }),
    ]);
    const runs = (await t.http.get(`/api/user/automate/flows/${applied.body.automation_id}/runs`).set(user.auth)).body
      .runs;
    expect(runs).toHaveLength(2); // the test and the real end
  });

  it('a call-ended automation does not run on a conversation end, nor the conversation one on a call end', async () => {
    const user = await t.createUser({ balance: 5 });
    const assistant = await createAssistant(t, user);
    await t.http.post(`/api/user/assistant/${assistant}/activate`).set(user.auth).expect(200);
    const calls = await t.http
      .post('/api/user/automate/templates/post_call_webhook_forward')
      .set(user.auth)
      .send({ assistant_id: assistant, params: { url: receiver.url('/calls-only') }, test: false });
    const conversations = await t.http
      .post('/api/user/automate/templates/conversation_webhook_forward')
      .set(user.auth)
      .send({ assistant_id: assistant, params: { url: receiver.url('/conversations-only') }, test: false });
    expect([calls.status, conversations.status]).toEqual([201, 201]);
    const conversation = await chatConversation(user, assistant);
    await t.http.post(`/api/sandbox/conversations/${conversation.uuid}/end-now`).set(user.auth).expect(200);
    await deliverEnds(conversation.id);
    expect(
      (await t.http.get(`/api/user/automate/flows/${calls.body.automation_id}/runs`).set(user.auth)).body.runs,
    ).toHaveLength(0);
    expect(
      (await t.http.get(`/api/user/automate/flows/${conversations.body.automation_id}/runs`).set(user.auth)).body.runs,
    ).toHaveLength(1);
  });
});
