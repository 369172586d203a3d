import { FakeStore, InMemoryCallPermissionRepository, InMemoryRateLimitStore, RecordingLogger, RecordingVoiceRuntime, SAMPLE_CATALOG } from '@voiceplane/adapter-fakes';
import {
  acceptCallPermission, AssistantConfig, Conversation, DEFAULT_CALL_MINUTE_PRICES, draftAssistant, err, MessageTemplate, newConversation, ok,
  recordPermissionRequest, Sender,
} from '@voiceplane/domain';
import { BalanceService } from '../billing/balance-service';
import { WebhookDeliveries } from '../webhooks/webhook-deliveries';
import { CallConfigurations } from '../calls/call-configurations';
import { EndCall } from '../calls/end-call';
import { CHATAPP_CALL_CONNECTED_TOPIC, RecordCallEvent } from '../calls/record-call-event';
import { askCounterResetConsumer } from './ask-counter-reset';
import { chatappCallDispatchConsumer } from './chatapp-call-dispatch';
import { CHATAPP_CALL_QUEUED_TOPIC, PlaceChatappCall } from './place-chatapp-call';
import { VoiceFacts } from './voice-facts';

const START = new Date('2030-06-01T10:00:00.000Z');
const PHONE = '+4915112345678';

function setup() {
  const store = new FakeStore(START);
  const permissions = new InMemoryCallPermissionRepository();
  const senders = new Map<number, Sender>();
  const conversations = new Map<string, Conversation>();
  const templates: MessageTemplate[] = [];
  const lookups = {
    senders: { findOwned: async (userId: number, id: number) => (senders.get(id)?.userId === userId ? senders.get(id)! : null) },
    conversations: { find: async (senderId: number, phone: string) => conversations.get(`${senderId}:${phone}`) ?? null },
    templates: { list: async (senderId: number) => templates.filter((t) => t.senderId === senderId && t.status === 'approved') },
  };
  const facts = new VoiceFacts(
    store.users, store.assistants, lookups.templates, lookups.conversations, permissions, store.calls, new InMemoryRateLimitStore(), DEFAULT_CALL_MINUTE_PRICES,
  );
  const configurations = new CallConfigurations(store.tools, store.catalog);
  const place = new PlaceChatappCall(store.uow, lookups.senders, store.assistants, facts, configurations, store.calls, store.outbox, store.jobs, store.clock);
  const deliveries = new WebhookDeliveries(store.uow, store.deliveries, store.outbox, store.jobs, store.ids, store.clock);
  const events = new RecordCallEvent(store.calls, new EndCall(store.assistants, new BalanceService(store.ledger), deliveries, DEFAULT_CALL_MINUTE_PRICES), store.clock);
  const runtime = new RecordingVoiceRuntime(null);
  const seen = new Set<string>();
  const processed = { record: async (consumer: string, id: string) => !seen.has(`${consumer}:${id}`) && !!seen.add(`${consumer}:${id}`) };
  const dispatch = chatappCallDispatchConsumer(store.uow, processed, store.calls, store.assistants, runtime, events, new RecordingLogger());
  const reset = askCounterResetConsumer(store.uow, processed, permissions);

  async function scene(options: { balance?: number; sender?: Partial<Sender>; assistant?: Partial<AssistantConfig> | null; permission?: 'granted' | 'none' } = {}) {
    const user = await store.account({ balance: options.balance ?? 5 });
    const assistant = options.assistant === null ? null
      : await store.assistants.create(user.id, { ...draftAssistant({ name: 'Concierge' }, SAMPLE_CATALOG), ringingTime: 25, maxDuration: 240, ...options.assistant });
    if (assistant === 'inbound_number_taken') throw new Error('taken');
    const sender: Sender = {
      id: 12, userId: user.id, phoneNumber: '+4930123456', displayName: 'Acme', status: 'online', qualityRating: 'GREEN', messagingLimit: 1000,
      countryCode: 'DE', assistantId: assistant?.id ?? null, callingEnabled: true, statusWebhookUrl: null, provider: 'sandbox', createdAt: START, updatedAt: START,
      ...options.sender,
    };
    senders.set(sender.id, sender);
    conversations.set(`${sender.id}:${PHONE}`, newConversation({ id: 880, uuid: 'conv-uuid', userId: user.id, senderId: sender.id, customerPhone: PHONE }, START));
    if ((options.permission ?? 'granted') === 'granted') {
      await permissions.update(sender.id, PHONE, async (p) => ok({ next: acceptCallPermission(p, true, START).next, answer: null }));
    }
    return { user, sender, assistant };
  }
  const call = (userId: number, over: { senderId?: number; phone?: string; variables?: Record<string, string> } = {}) =>
    place.execute({ userId, senderId: over.senderId ?? 12, recipientPhone: over.phone ?? PHONE, variables: over.variables ?? {} });
  const queued = () => store.outbox.events(CHATAPP_CALL_QUEUED_TOPIC);
  const message = (topic: string, payload: unknown, id: string) => ({ id, topic, payload, occurredAt: START.toISOString() });
  return { store, permissions, runtime, events, dispatch, reset, scene, call, queued, message };
}

describe('PlaceChatappCall (CONTRACT §9.5)', () => {
  it('stores a queued chat-app call of the sender\'s assistant with merged variables and hands it to the worker', async () => {
    const { store, scene, call, queued } = setup();
    const { user, assistant } = await scene({ assistant: { variables: { company: 'Acme', greeting: 'Hi' } } });

    const result = await call(user.id, { variables: { greeting: 'Hello' } });

    expect(result).toEqual(ok({ callId: expect.any(Number) }));
    const stored = await store.calls.findById(result.ok ? result.value.callId : 0);
    expect(stored).toMatchObject({
      channel: 'chatapp', direction: 'outbound', status: 'queued', senderId: 12, conversationId: 'conv-uuid', assistantId: assistant!.id,
      customerPhone: PHONE, assistantPhone: '+4930123456', variables: { greeting: 'Hello' },
    });
    expect(stored?.runtimeConfig.variables).toEqual({ company: 'Acme', greeting: 'Hello' });
    expect(queued().map((e) => e.payload)).toEqual([{ call_id: stored!.id, user_id: user.id }]);
  });

  it.each([
    ['SENDER_NOT_FOUND for another account\'s sender', async (s: ReturnType<typeof setup>) => {
      await s.scene();
      const stranger = await s.store.account();
      return s.call(stranger.id);
    }, { code: 'SENDER_NOT_FOUND' }],
    ['INVALID_PHONE', async (s: ReturnType<typeof setup>) => s.call((await s.scene()).user.id, { phone: '0151 1234' }), { code: 'INVALID_PHONE' }],
    ['FEATURE_DISABLED when the plan has no chat-app calling', async (s: ReturnType<typeof setup>) => {
      const { user } = await s.scene();
      await s.store.users.updatePlan(user.id, { ...user.plan, chatapp_calling_enabled: false });
      return s.call(user.id);
    }, { code: 'FEATURE_DISABLED' }],
    ['VOICE_DISABLED', async (s: ReturnType<typeof setup>) => s.call((await s.scene({ sender: { callingEnabled: false } })).user.id), { code: 'VOICE_DISABLED' }],
    ['SENDER_OFFLINE', async (s: ReturnType<typeof setup>) => s.call((await s.scene({ sender: { status: 'offline' } })).user.id), { code: 'SENDER_OFFLINE' }],
    ['REGION_NOT_SUPPORTED', async (s: ReturnType<typeof setup>) => s.call((await s.scene({ sender: { countryCode: 'US' } })).user.id), { code: 'REGION_NOT_SUPPORTED', country: 'US' }],
    ['NO_ASSISTANT', async (s: ReturnType<typeof setup>) => s.call((await s.scene({ assistant: null })).user.id), { code: 'NO_ASSISTANT' }],
    ['NO_PERMISSION', async (s: ReturnType<typeof setup>) => s.call((await s.scene({ permission: 'none' })).user.id), { code: 'NO_PERMISSION', reason: 'no_permission' }],
    ['INSUFFICIENT_BALANCE', async (s: ReturnType<typeof setup>) => s.call((await s.scene({ balance: 0.05 })).user.id), { code: 'INSUFFICIENT_BALANCE' }],
  ])('refuses with %s and stores nothing', async (_name, act, expected) => {
    const s = setup();
    const result = await act(s);
    expect(result).toEqual(err(expected));
    expect(s.queued()).toEqual([]);
  });

  it('holds 5 open calls per sender and 3 attempts per contact in 5 minutes', async () => {
    const { store, scene, call } = setup();
    const { user } = await scene();
    for (const _ of [1, 2, 3]) expect((await call(user.id)).ok).toBe(true);

    expect(await call(user.id)).toEqual(err({ code: 'CONTACT_RATE_LIMIT', retryAfterSeconds: 300, retryAt: new Date(START.getTime() + 300_000) }));
    store.clock.advance(300_000);
    expect((await call(user.id)).ok).toBe(true);
    expect((await call(user.id)).ok).toBe(true);
    expect(await call(user.id)).toEqual(err({ code: 'CONCURRENT_LIMIT', retryAfterSeconds: 30 }));
  });
});

describe('chat-app call dispatch and ask counters', () => {
  it('places a queued call once through the runtime with the sender line and the assistant\'s timings', async () => {
    const { runtime, dispatch, scene, call, queued, message } = setup();
    const { user } = await scene();
    await call(user.id);
    const [event] = queued();

    await dispatch.handle(message(event.topic, event.payload, 'q1'));
    await dispatch.handle(message(event.topic, event.payload, 'q1'));

    expect(runtime.placed).toEqual([{
      callId: (event.payload as { call_id: number }).call_id, userId: user.id, customerPhone: PHONE,
      line: { phoneNumberId: null, phoneNumber: '+4930123456', sip: null }, ringingTimeSeconds: 25, maxDurationSeconds: 240,
    }]);
  });

  it('fails the call when the runtime refuses it', async () => {
    const { store, runtime, dispatch, scene, call, queued, message } = setup();
    const { user } = await scene();
    await call(user.id);
    const [event] = queued();
    runtime.refuseNext();

    await dispatch.handle(message(event.topic, event.payload, 'q1'));

    expect(await store.calls.findById((event.payload as { call_id: number }).call_id)).toMatchObject({ status: 'failed', endedReason: 'dispatch_failed' });
  });

  it('a connected chat-app call resets the contact\'s ask counters', async () => {
    const { store, permissions, events, reset, scene, call, message } = setup();
    const { user } = await scene({ permission: 'none' });
    await permissions.update(12, PHONE, async (p) => {
      const asked = recordPermissionRequest(p, START);
      return asked.ok ? ok({ next: acceptCallPermission(asked.value.next, true, START).next, answer: null }) : asked;
    });
    store.clock.advance(60_000);
    const placed = await call(user.id);
    const callId = placed.ok ? placed.value.callId : 0;
    await events.record(callId, { eventId: 'r', occurredAt: null, event: { type: 'ringing' } });
    await events.record(callId, { eventId: 'a', occurredAt: null, event: { type: 'answered' } });
    const [connected] = store.outbox.events(CHATAPP_CALL_CONNECTED_TOPIC);

    await reset.handle(message(connected.topic, connected.payload, 'c1'));

    expect(connected.payload).toEqual({ call_id: callId, sender_id: 12, customer_phone: PHONE, at: new Date(START.getTime() + 60_000).toISOString() });
    expect(await permissions.find(12, PHONE)).toMatchObject({ asks: [], asksCountedAfter: new Date(START.getTime() + 60_000) });
  });
});
