import { err, ok, acceptCallPermission, recordPermissionRequest } from '@voiceplane/domain';
import { CHATAPP_CALL_CONNECTED_TOPIC } from '../calls';
import { callDispatchWatchdog, DISPATCH_WATCHDOG_MS } from '../calls';
import { voiceScene, PHONE, START } from '../../test-support/voice-scene';

const setup = voiceScene;
describe('PlaceChatappCall', () => {
  it("stores a queued chat-app call of the sender's assistant with merged variables and hands it to the worker", async () => {
    const { store, scene, call, queued } = setup();
    const { user, assistant } = await scene({ assistant: { variables: { company: 'Acme', greeting: 'Hi' } } });

    const result = await call(user.id, { variables: { greeting: 'Hello' } });

    expect(result).toEqual(ok({ callId: expect.any(Number) }));
    const stored = await store.calls.findById(result.ok ? result.value.callId : 0);
    expect(stored).toMatchObject({
      channel: 'chatapp',
      direction: 'outbound',
      status: 'queued',
      senderId: 12,
      conversationId: 'conv-uuid',
      assistantId: assistant!.id,
      customerPhone: PHONE,
      assistantPhone: '+4930123456',
      variables: { greeting: 'Hello' },
    });
    expect(stored?.runtimeConfig.variables).toEqual({ company: 'Acme', greeting: 'Hello' });
    expect(queued().map((e) => e.payload)).toEqual([{ call_id: stored!.id, user_id: user.id }]);
  });

  it.each([
    [
      "SENDER_NOT_FOUND for another account's sender",
      async (s: ReturnType<typeof setup>) => {
        await s.scene();
        const stranger = await s.store.account();
        return s.call(stranger.id);
      },
      { code: 'sender_not_found' },
    ],
    [
      'invalid_phone',
      async (s: ReturnType<typeof setup>) => s.call((await s.scene()).user.id, { phone: '0151 1234' }),
      { code: 'invalid_phone' },
    ],
    [
      'FEATURE_DISABLED when the plan has no chat-app calling',
      async (s: ReturnType<typeof setup>) => {
        const { user } = await s.scene();
        await s.store.users.updatePlan(user.id, { ...user.plan, chatapp_calling_enabled: false });
        return s.call(user.id);
      },
      { code: 'feature_disabled' },
    ],
    [
      'voice_disabled',
      async (s: ReturnType<typeof setup>) => s.call((await s.scene({ sender: { callingEnabled: false } })).user.id),
      { code: 'voice_disabled' },
    ],
    [
      'sender_offline',
      async (s: ReturnType<typeof setup>) => s.call((await s.scene({ sender: { status: 'offline' } })).user.id),
      { code: 'sender_offline' },
    ],
    [
      'region_not_supported',
      async (s: ReturnType<typeof setup>) => s.call((await s.scene({ sender: { countryCode: 'US' } })).user.id),
      { code: 'region_not_supported', country: 'US' },
    ],
    [
      'no_assistant',
      async (s: ReturnType<typeof setup>) => s.call((await s.scene({ assistant: null })).user.id),
      { code: 'no_assistant' },
    ],
    [
      'no_permission',
      async (s: ReturnType<typeof setup>) => s.call((await s.scene({ permission: 'none' })).user.id),
      { code: 'no_permission' },
    ],
    [
      'insufficient_balance',
      async (s: ReturnType<typeof setup>) => s.call((await s.scene({ balance: 0.05 })).user.id),
      { code: 'insufficient_balance' },
    ],
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

    expect(await call(user.id)).toEqual(
      err({ code: 'contact_rate_limit', retryAfterSeconds: 300, retryAt: new Date(START.getTime() + 300_000) }),
    );
    store.clock.advance(300_000);
    expect((await call(user.id)).ok).toBe(true);
    expect((await call(user.id)).ok).toBe(true);
    expect(await call(user.id)).toEqual(err({ code: 'concurrent_limit', retryAfterSeconds: 30 }));
  });

  it('releases a sender line when one of its calls ends', async () => {
    const { store, events, scene, call } = setup();
    const { user } = await scene();
    const placed: number[] = [];
    for (const _ of [1, 2, 3]) placed.push(((await call(user.id)) as { value: { callId: number } }).value.callId);
    store.clock.advance(300_000);
    for (const _ of [1, 2]) placed.push(((await call(user.id)) as { value: { callId: number } }).value.callId);
    expect(await call(user.id)).toEqual(err({ code: 'concurrent_limit', retryAfterSeconds: 30 }));

    await events.record(placed[0], {
      eventId: 'end',
      occurredAt: null,
      event: { type: 'ended', outcome: { status: 'no-answer' } },
    });

    expect((await call(user.id)).ok).toBe(true);
  });
});

describe('chat-app call dispatch and ask counters', () => {
  it("places a queued call once through the runtime with the sender line and the assistant's timings", async () => {
    const { runtime, dispatch, scene, call, queued, message } = setup();
    const { user } = await scene();
    await call(user.id);
    const [event] = queued();

    await dispatch.handle(message(event.topic, event.payload, 'q1'));
    await dispatch.handle(message(event.topic, event.payload, 'q1'));

    expect(runtime.placed).toEqual([
      {
        callId: (event.payload as { call_id: number }).call_id,
        userId: user.id,
        customerPhone: PHONE,
        line: { phoneNumberId: null, phoneNumber: '+4930123456', sip: null },
        ringingTimeSeconds: 25,
        maxDurationSeconds: 240,
      },
    ]);
  });

  it('fails the call when the runtime refuses it', async () => {
    const { store, runtime, dispatch, scene, call, queued, message } = setup();
    const { user } = await scene();
    await call(user.id);
    const [event] = queued();
    runtime.refuseNext();

    await dispatch.handle(message(event.topic, event.payload, 'q1'));

    expect(await store.calls.findById((event.payload as { call_id: number }).call_id)).toMatchObject({
      status: 'failed',
      endedReason: 'dispatch_failed',
    });
  });

  it('claims a dispatch before asking the runtime: lost after the claim, it is never placed again and the watchdog fails it at the deadline', async () => {
    const { store, runtime, events, dispatch, scene, call, queued, message } = setup();
    const { user } = await scene();
    await call(user.id);
    const [event] = queued();
    const callId = (event.payload as { call_id: number }).call_id;
    store.clock.advance(5 * 60_000);
    // The worker dies while the runtime is taking the call: its hand-over never settles.
    const asked = jest.spyOn(runtime, 'placeCall').mockImplementation(() => new Promise<void>(() => undefined));
    void dispatch.handle(message(event.topic, event.payload, 'q1'));
    await new Promise((resolve) => setImmediate(resolve));

    // The broker delivers the queued event again: the claim stands, nothing is placed twice.
    await dispatch.handle(message(event.topic, event.payload, 'q1'));
    expect(asked).toHaveBeenCalledTimes(1);
    expect(await store.calls.findById(callId)).toMatchObject({ status: 'queued' });
    // The claim re-armed the watchdog from its own time; at the deadline the call is settled.
    const [watchdog] = store.jobs.jobs().filter((j) => j.key === `call-dispatch:${callId}`);
    expect(watchdog.runAt).toEqual(new Date(START.getTime() + 5 * 60_000 + DISPATCH_WATCHDOG_MS));
    await callDispatchWatchdog(events).handle({
      id: 1,
      kind: watchdog.kind,
      key: watchdog.key,
      payload: watchdog.payload,
      attempts: 1,
      leaseToken: 't',
    });
    expect(await store.calls.findById(callId)).toMatchObject({ status: 'failed', endedReason: 'dispatch_lost' });
  });

  it("a connected chat-app call resets the contact's ask counters", async () => {
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

    expect(connected.payload).toEqual({
      call_id: callId,
      sender_id: 12,
      customer_phone: PHONE,
      at: new Date(START.getTime() + 60_000).toISOString(),
    });
    expect(await permissions.find(12, PHONE)).toMatchObject({
      asks: [],
      asksCountedAfter: new Date(START.getTime() + 60_000),
    });
  });
});
