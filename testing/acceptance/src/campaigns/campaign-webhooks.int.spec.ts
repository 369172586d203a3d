import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';
import { eventually, verifyWithReference, WebhookReceiver } from '@voiceplane/stand-ins/fault/webhook-receiver';
import { createAssistant } from '@voiceplane/stand-ins/calls/fixtures';

/**
 * `campaign.*` events through the webhook delivery pipeline, with the background workers running:
 * the outbox publishes the event, a consumer queues a delivery to the campaign assistant's webhook,
 * the sender signs and sends it; the deliveries list shows it and a replay sends it again.
 */

let t: TestApi;
let receiver: WebhookReceiver;
let owner: TestUser;

beforeAll(async () => {
  t = await createTestApi();
  receiver = await WebhookReceiver.start();
  owner = await t.createUser({ balance: 50 });
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

async function deliveries(eventType: string) {
  const res = await t.http.get(`/api/user/webhooks/deliveries?event_type=${eventType}`).set(owner.auth);
  return res.body.data as Array<{ id: string; webhook_id: string; status: string; source: unknown }>;
}

async function campaignOf(assistant: number) {
  const created = await t.http
    .post('/api/user/campaigns')
    .set(owner.auth)
    // Closed every day but Sunday 00:00: nothing is dialed while the events are checked.
    .send({
      name: 'Hooks',
      assistant_id: assistant,
      allowed_days: ['sunday'],
      allowed_hours_start_time: '00:00',
      allowed_hours_end_time: '00:01',
    });
  const id = created.body.data.id as number;
  await t.http.post('/api/user/lead').set(owner.auth).send({ campaign_id: id, phone_number: '+14155550123' });
  return id;
}
const status = (campaignId: number, action: string) =>
  t.http.post('/api/user/campaigns/update-status').set(owner.auth).send({ campaign_id: campaignId, action });

describe('campaign events as webhooks', () => {
  it("sends campaign.started and campaign.stopped, signed, to the assistant's webhook; the delivery can be replayed", async () => {
    const assistant = await createAssistant(t, owner, {
      webhook_url: receiver.url('/campaigns'),
      is_webhook_active: true,
    });
    const campaignId = await campaignOf(assistant);
    expect((await status(campaignId, 'start')).status).toBe(200);
    expect((await status(campaignId, 'stop')).status).toBe(200);
    const secret = (await t.http.get('/api/user/webhooks/signing-secret').set(owner.auth)).body.secret;
    for (const [event, campaignStatus, reason] of [
      ['campaign.started', 'in-progress', null],
      ['campaign.stopped', 'stopped', 'user'],
    ] as const) {
      await eventually(async () => (await deliveries(event)).length > 0, `${event} delivery`);
      const [delivery] = await deliveries(event);
      expect(delivery.source).toEqual({ type: 'assistant', id: assistant });
      await eventually(() => receiver.forId(delivery.webhook_id).length > 0, `${event} at the receiver`);
      const [hook] = receiver.forId(delivery.webhook_id);
      expect(verifyWithReference(secret, hook)).toEqual({
        event,
        campaign: expect.objectContaining({
          id: campaignId,
          status: campaignStatus,
          stop_reason: reason,
          assistant_id: assistant,
        }),
        timestamp: expect.any(String),
      });
    }
    const [started] = await deliveries('campaign.started');
    await eventually(async () => (await deliveries('campaign.started'))[0].status === 'succeeded', 'settled');
    expect((await t.http.post(`/api/user/webhooks/deliveries/${started.id}/replay`).set(owner.auth)).status).toBe(200);
    await eventually(() => receiver.forId(started.webhook_id).length === 2, 'the replay');
  });

  it('sends nothing while the assistant webhook is off', async () => {
    const quiet = await createAssistant(t, owner, { webhook_url: receiver.url('/quiet'), is_webhook_active: false });
    const campaignId = await campaignOf(quiet);
    const before = (await deliveries('campaign.started')).length;
    expect((await status(campaignId, 'start')).status).toBe(200);
    // The consumer has run once the event of a later campaign with an active webhook is delivered.
    const loud = await createAssistant(t, owner, { webhook_url: receiver.url('/loud'), is_webhook_active: true });
    expect((await status(await campaignOf(loud), 'start')).status).toBe(200);
    await eventually(async () => (await deliveries('campaign.started')).length === before + 1, 'the later event');
    expect(receiver.received.filter((r) => r.path === '/quiet')).toEqual([]);
  });
});
