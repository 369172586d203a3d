import {
  FakeStore,
  InMemoryCallPermissionRepository,
  InMemoryVoiceWebhookSettingRepository,
} from '@voiceplane/adapter-fakes';
import { err, noCallPermission, ok, recordPermissionRequest } from '@voiceplane/domain';
import { WebhookDeliveries } from '../webhooks';
import { CHATAPP_CALL_RINGING_TOPIC } from '../calls';
import { AnswerCallPermission, PermissionAnswer } from './answer-call-permission';
import { callStartedConsumer } from './voice-events';
import { VoiceWebhook } from './voice-webhook';

const START = new Date('2030-06-01T10:00:00.000Z');
const PHONE = '+4915112345678';
const HOOK = 'https://hooks.example.test/voice';

function setup() {
  const store = new FakeStore(START);
  const permissions = new InMemoryCallPermissionRepository();
  const settings = new InMemoryVoiceWebhookSettingRepository();
  const deliveries = new WebhookDeliveries(
    store.uow,
    store.deliveries,
    store.outbox,
    store.jobs,
    store.ids,
    store.clock,
  );
  const voiceWebhook = new VoiceWebhook(store.uow, settings, deliveries, store.clock);
  const answers = new AnswerCallPermission(store.uow, permissions, voiceWebhook, store.clock);
  const delivered = async (userId: number) => (await store.deliveries.list(userId, {}, { page: 1, perPage: 50 })).items;
  const answer = (userId: number, response: PermissionAnswer['response'], permanent = false) =>
    answers.answer({ userId, senderId: 12, customerPhone: PHONE, conversationUuid: 'conv-uuid', response, permanent });
  return { store, permissions, voiceWebhook, answer, delivered };
}

async function asked(permissions: InMemoryCallPermissionRepository): Promise<void> {
  await permissions.update(12, PHONE, async (current) => {
    const request = recordPermissionRequest(current, START);
    return request.ok ? ok({ next: request.value.next, answer: null }) : request;
  });
}

describe('AnswerCallPermission', () => {
  it('grants for 7 days on accept and sends call_permission_granted to the voice webhook', async () => {
    const { store, permissions, voiceWebhook, answer, delivered } = setup();
    const user = await store.account();
    await voiceWebhook.set(user.id, HOOK);
    await asked(permissions);

    const result = await answer(user.id, 'accept');

    const grantedUntil = new Date(START.getTime() + 7 * 86_400_000);
    expect(result).toEqual(
      ok(
        expect.objectContaining({ status: 'granted', isPermanent: false, expiresAt: grantedUntil, respondedAt: START }),
      ),
    );
    const [delivery] = await delivered(user.id);
    expect(delivery).toMatchObject({
      eventType: 'call_permission_granted',
      targetUrl: HOOK,
      source: { type: 'account', id: user.id },
    });
    expect(JSON.parse(delivery.body)).toEqual({
      event: 'call_permission_granted',
      sender_id: 12,
      customer_phone: PHONE,
      conversation_id: 'conv-uuid',
      permission: {
        status: 'granted',
        is_permanent: false,
        expires_at: grantedUntil.toISOString(),
        responded_at: START.toISOString(),
      },
      timestamp: START.toISOString(),
    });
  });

  it('a permanent grant has no expiry; without a voice webhook no event is created', async () => {
    const { store, permissions, answer, delivered } = setup();
    const user = await store.account();

    await answer(user.id, 'accept', true);

    expect(await permissions.find(12, PHONE)).toMatchObject({ status: 'granted', isPermanent: true, expiresAt: null });
    expect(await delivered(user.id)).toEqual([]);
  });

  it('rejects a pending request, revokes a live grant, and sends no event for either', async () => {
    const { store, permissions, voiceWebhook, answer, delivered } = setup();
    const user = await store.account();
    await voiceWebhook.set(user.id, HOOK);
    await asked(permissions);

    expect(await answer(user.id, 'reject')).toEqual(ok(expect.objectContaining({ status: 'rejected' })));
    await answer(user.id, 'accept');
    expect(await answer(user.id, 'revoke')).toEqual(
      ok(expect.objectContaining({ status: 'revoked', expiresAt: null })),
    );
    expect((await delivered(user.id)).map((d) => d.eventType)).toEqual(['call_permission_granted']);
  });

  it('refuses a revoke of a permission that is not granted and a decline with nothing asked, changing nothing', async () => {
    const { store, permissions, answer } = setup();
    const user = await store.account();

    expect(await answer(user.id, 'revoke')).toEqual(err('not_granted'));
    expect(await answer(user.id, 'reject')).toEqual(err('nothing_to_decline'));
    expect(permissions.isStored(12, PHONE)).toBe(false);
    expect(await permissions.find(12, PHONE)).toEqual(noCallPermission(12, PHONE));
  });

  it('an expired temporary grant can no longer be revoked', async () => {
    const { store, answer } = setup();
    const user = await store.account();
    await answer(user.id, 'accept');
    store.clock.advance(7 * 86_400_000);

    expect(await answer(user.id, 'revoke')).toEqual(err('not_granted'));
  });
});

describe('VoiceWebhook', () => {
  it('clearing the URL cancels pending voice events and stops new ones', async () => {
    const { store, voiceWebhook, answer, delivered } = setup();
    const user = await store.account();
    await voiceWebhook.set(user.id, HOOK);
    await answer(user.id, 'accept');

    expect(await voiceWebhook.set(user.id, null)).toBeNull();
    await answer(user.id, 'accept');

    expect(await voiceWebhook.url(user.id)).toBeNull();
    expect((await delivered(user.id)).map((d) => d.status)).toEqual(['canceled']);
  });

  it('sends call_started once per ringing event of a chat-app call', async () => {
    const { store, voiceWebhook, delivered } = setup();
    const user = await store.account();
    await voiceWebhook.set(user.id, HOOK);
    const seen = new Set<string>();
    const consumer = callStartedConsumer(
      store.uow,
      { record: async (_c: string, id: string) => !seen.has(id) && !!seen.add(id) },
      voiceWebhook,
    );
    const message = {
      id: 'evt_1',
      topic: CHATAPP_CALL_RINGING_TOPIC,
      occurredAt: START.toISOString(),
      payload: {
        call_id: 4830,
        user_id: user.id,
        sender_id: 12,
        customer_phone: PHONE,
        conversation_id: 'conv-uuid',
        at: START.toISOString(),
      },
    };

    await consumer.handle(message);
    await consumer.handle(message);

    const deliveries = await delivered(user.id);
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ eventType: 'call_started', subject: { type: 'call', id: 4830 } });
    expect(JSON.parse(deliveries[0].body)).toEqual({
      event: 'call_started',
      sender_id: 12,
      customer_phone: PHONE,
      conversation_id: 'conv-uuid',
      call_id: 4830,
      timestamp: START.toISOString(),
    });
  });
});
