import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';
import { eventually, WebhookReceiver } from '../../../../../tools/fault/webhook-receiver';
import { createAssistant, CUSTOMER, inboundAssistant, makeCall, purchaseNumber } from '../../../../../tools/calls/fixtures';

/**
 * The inbound and conversation-ended webhook switches, with the bodies the MCP server sends
 * (`{assistant_id, webhook_url}` to enable, `{assistant_id}` to disable): inbound calls' post-call
 * bodies reach the inbound URL, outbound calls' never do.
 */

let t: TestApi;
let receiver: WebhookReceiver;
let owner: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  t = await createTestApi();
  receiver = await WebhookReceiver.start();
  owner = await t.createUser({ balance: 20 });
  stranger = await t.createUser();
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

const INVALID = 'The given data was invalid.';
const post = (path: string, body: unknown, user = owner) => t.http.post(`/api/user/assistants/${path}`).set(user.auth).send(body as object);
const assistantOf = async (id: number) => (await t.http.get(`/api/user/assistant/${id}`).set(owner.auth)).body.data;
const event = (id: number, body: Record<string, unknown>) => t.http.post(`/api/runtime/calls/${id}/events`).set(t.runtimeAuth).send(body).expect(200);

async function endCall(id: number): Promise<void> {
  await event(id, { event_id: `a-${id}`, type: 'answered' });
  await event(id, { event_id: `e-${id}`, type: 'ended', data: { status: 'completed', duration: 12 } });
}

describe('enable-inbound-webhook and disable-inbound-webhook', () => {
  it('send each inbound call\'s post-call body to the URL, never an outbound one, until disabled', async () => {
    const number = await purchaseNumber(t, owner);
    const inbound = await inboundAssistant(t, owner, number.id);
    const url = receiver.url('/inbound');
    const enabled = await post('enable-inbound-webhook', { assistant_id: inbound, webhook_url: url });
    expect([enabled.status, enabled.body]).toEqual([200, { message: 'Webhook enabled successfully', data: [] }]);
    // The post-call webhook itself stays off.
    expect(await assistantOf(inbound)).toEqual(expect.objectContaining({ is_webhook_active: false, webhook_url: null }));

    const call = (await t.http.post('/api/runtime/calls/inbound').set(t.runtimeAuth).send({ to: number.phoneNumber, from: CUSTOMER })).body.call_id as number;
    await endCall(call);
    await eventually(() => receiver.received.some((r) => r.path === '/inbound' && JSON.parse(r.body).id === call), `inbound post_call of call ${call}`);
    const body = JSON.parse(receiver.received.find((r) => r.path === '/inbound' && JSON.parse(r.body).id === call)!.body);
    expect(body).toEqual(expect.objectContaining({ id: call, assistant_id: inbound, customer_phone: CUSTOMER, status: 'completed', lead: null, campaign: null }));

    // An outbound assistant's calls never reach an inbound URL.
    const outbound = await createAssistant(t, owner);
    await post('enable-inbound-webhook', { assistant_id: outbound, webhook_url: receiver.url('/never') }).expect(200);
    await endCall(await makeCall(t, owner, outbound));

    const disabled = await post('disable-inbound-webhook', { assistant_id: inbound });
    expect([disabled.status, disabled.body]).toEqual([200, { message: 'Inbound webhook disabled successfully', data: [] }]);
    expect((await post('disable-inbound-webhook', { assistant_id: inbound })).status).toBe(200);
    const later = (await t.http.post('/api/runtime/calls/inbound').set(t.runtimeAuth).send({ to: number.phoneNumber, from: CUSTOMER })).body.call_id as number;
    await endCall(later);
    const deliveries = (await t.http.get('/api/user/webhooks/deliveries?event_type=post_call&per_page=100').set(owner.auth)).body.data as Array<{ subject: { id: number } }>;
    expect(deliveries.filter((d) => d.subject.id === later)).toEqual([]);
    expect(receiver.received.filter((r) => r.path === '/never')).toEqual([]);
  });
});

describe('enable-conversation-ended-webhook and disable-conversation-ended-webhook', () => {
  it('set and clear conversation_ended_webhook_url, idempotently', async () => {
    const assistant = await createAssistant(t, owner);
    const url = 'https://hooks.example.com/ended';
    const enabled = await post('enable-conversation-ended-webhook', { assistant_id: assistant, webhook_url: url });
    expect([enabled.status, enabled.body]).toEqual([200, { message: 'Conversation ended webhook enabled successfully', data: [] }]);
    expect((await assistantOf(assistant)).conversation_ended_webhook_url).toBe(url);
    for (let i = 0; i < 2; i++) {
      const disabled = await post('disable-conversation-ended-webhook', { assistant_id: String(assistant) });
      expect([disabled.status, disabled.body]).toEqual([200, { message: 'Conversation ended webhook disabled successfully', data: [] }]);
    }
    expect((await assistantOf(assistant)).conversation_ended_webhook_url).toBeNull();
  });
});

describe.each(['inbound', 'conversation-ended'])('the %s switches refuse', (kind) => {
  it('another account\'s or an unknown assistant with 404, and bad bodies with 422, changing nothing', async () => {
    const assistant = await createAssistant(t, owner);
    for (const [path, body] of [[`enable-${kind}-webhook`, { assistant_id: assistant, webhook_url: 'https://h.example.com/x' }], [`disable-${kind}-webhook`, { assistant_id: assistant }]] as const) {
      const foreign = await post(path, body, stranger);
      expect([foreign.status, foreign.body]).toEqual([404, { message: 'Assistant not found' }]);
      const unknown = await post(path, { ...body, assistant_id: 99_999_999 });
      expect([unknown.status, unknown.body]).toEqual([404, { message: 'Assistant not found' }]);
    }
    const cases: Array<[string, unknown, Record<string, string[]>]> = [
      [`enable-${kind}-webhook`, {}, { assistant_id: ['The assistant id field is required.'], webhook_url: ['The webhook url field is required.'] }],
      [`enable-${kind}-webhook`, { assistant_id: assistant, webhook_url: 'not a url' }, { webhook_url: ['The webhook url must be a valid URL.'] }],
      [`disable-${kind}-webhook`, { assistant_id: 'x' }, { assistant_id: ['The assistant id must be an integer.'] }],
      [`disable-${kind}-webhook`, null, { assistant_id: ['The assistant id field is required.'] }],
    ];
    for (const [path, body, errors] of cases) {
      const res = await post(path, body);
      expect([path, res.status, res.body]).toEqual([path, 422, { message: INVALID, errors }]);
    }
    expect(await assistantOf(assistant)).toEqual(expect.objectContaining({ conversation_ended_webhook_url: null }));
  });
});
