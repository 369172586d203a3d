import { FakeStore, SAMPLE_CATALOG } from '@voiceplane/adapter-fakes';
import { AssistantConfig, CallOutcome, draftAssistant, err, ok } from '@voiceplane/domain';
import { BalanceService } from '../billing';
import { DELIVERY_REQUESTED_TOPIC, WebhookDeliveries } from '../webhooks';
import { CallConfigurations } from './call-configurations';
import { CALL_ENDED_TOPIC, EndCall } from './end-call';
import { CALL_STARTED_TOPIC, RecordCallEvent } from './record-call-event';

const START = new Date('2030-05-01T12:00:00.000Z');
const PRICES = { phone: 0.1, chatapp: 0.08 };
const HOOK = 'https://hooks.example.com/post-call';
const after = (seconds: number) => new Date(START.getTime() + seconds * 1000);

function setup() {
  const store = new FakeStore(START);
  const balance = new BalanceService(store.ledger);
  const deliveries = new WebhookDeliveries(
    store.uow,
    store.deliveries,
    store.outbox,
    store.jobs,
    store.ids,
    store.clock,
  );
  const events = new RecordCallEvent(
    store.calls,
    new EndCall(store.assistants, balance, deliveries, PRICES),
    store.clock,
  );
  const configurations = new CallConfigurations(store.tools, store.catalog, store.assistants);

  /** An outbound phone call of a new account's assistant, started now. */
  const started = async (options: { balance?: number; assistant?: Partial<AssistantConfig> } = {}) => {
    const user = await store.account({ balance: options.balance ?? 5 });
    const assistant = await store.assistants.create(user.id, {
      ...draftAssistant({ name: 'Sales' }, SAMPLE_CATALOG),
      isWebhookActive: true,
      webhookUrl: HOOK,
      record: true,
      ...options.assistant,
    });
    if (assistant === 'inbound_number_taken') throw new Error('inbound number taken');
    const line = { phoneNumberId: null, phoneNumber: '+15550000000', sip: null };
    const runtimeConfig = await configurations.forStart({
      direction: 'outbound',
      channel: 'phone',
      customerPhone: '+14155551234',
      line,
      assistant,
      variables: { order: '42' },
    });
    const { call } = await store.calls.create({
      userId: user.id,
      assistantId: assistant.id,
      direction: 'outbound',
      channel: 'phone',
      status: 'initiated',
      customerPhone: '+14155551234',
      line,
      variables: { order: '42' },
      runtimeConfig,
      now: store.clock.now(),
    });
    return { user, assistant, call };
  };
  let eventCounter = 0;
  const report = (
    callId: number,
    event: Parameters<RecordCallEvent['record']>[1]['event'],
    occurredAt: Date | null = null,
  ) => events.record(callId, { eventId: `e-${++eventCounter}`, occurredAt, event });
  const answeredAt = async (callId: number, seconds: number) => {
    store.clock.set(after(seconds));
    return report(callId, { type: 'answered' });
  };
  const endedAt = async (callId: number, seconds: number, outcome: CallOutcome) => {
    store.clock.set(after(seconds));
    return report(callId, { type: 'ended', outcome });
  };
  return { store, events, started, report, answeredAt, endedAt };
}

describe('EndCall (through the runtime ingress)', () => {
  it('charges every started minute of an answered call, stores its end and announces it', async () => {
    const { store, started, answeredAt, endedAt } = setup();
    const { user, assistant, call } = await started({ balance: 5 });
    await answeredAt(call.id, 5);

    const answer = await endedAt(call.id, 66, {
      status: 'completed',
      recordingUrl: 'https://rec.example.com/1.mp3',
      endedReason: 'customer_hangup',
      transcript: [
        { role: 'assistant', content: 'Hi', at: after(6).toISOString() },
        { role: 'customer', content: 'Bye', at: after(60).toISOString() },
      ],
      extractedVariables: { status: true, summary: 'Done' },
    });

    expect(answer).toEqual(ok({ callId: call.id, status: 'completed', duplicate: false }));
    const ended = await store.calls.findById(call.id);
    expect(ended).toEqual(
      expect.objectContaining({
        status: 'completed',
        answeredAt: after(5),
        finishedAt: after(66),
        duration: 61,
        cost: 0.2,
        recordingUrl: 'https://rec.example.com/1.mp3',
        endedReason: 'customer_hangup',
        extractedVariables: { status: true, summary: 'Done' },
        updatedAt: after(66),
      }),
    );
    expect((await store.users.findById(user.id))?.balance).toBe(4.8);
    expect((await store.ledger.list(user.id, { page: 1, perPage: 15 })).items).toEqual([
      expect.objectContaining({
        type: 'charge',
        amount: -0.2,
        balanceAfter: 4.8,
        description: `Call ${call.id} (2 min)`,
        reference: { type: 'call', id: call.id },
      }),
    ]);

    const post = (await store.deliveries.list(user.id, {}, { page: 1, perPage: 15 })).items;
    expect(post).toEqual([
      expect.objectContaining({
        eventType: 'post_call',
        targetUrl: HOOK,
        source: { type: 'assistant', id: assistant.id },
        subject: { type: 'call', id: call.id },
      }),
    ]);
    expect(JSON.parse(post[0].body)).toEqual({
      id: call.id,
      assistant_id: assistant.id,
      customer_phone: '+14155551234',
      assistant_phone: '+15550000000',
      duration: 61,
      status: 'completed',
      extracted_variables: { status: true, summary: 'Done' },
      input_variables: { order: '42' },
      transcript: 'AI: Hi\nCustomer: Bye',
      recording_url: 'https://rec.example.com/1.mp3',
      created_at: START.toISOString(),
      finished_at: after(66).toISOString(),
      lead: null,
      campaign: null,
    });
    expect(store.outbox.events().map((e) => e.topic)).toEqual([
      CALL_STARTED_TOPIC,
      DELIVERY_REQUESTED_TOPIC,
      CALL_ENDED_TOPIC,
    ]);
    expect(store.outbox.events(CALL_ENDED_TOPIC)[0].payload).toEqual(
      expect.objectContaining({
        call_id: call.id,
        user_id: user.id,
        assistant_id: assistant.id,
        status: 'completed',
        answered: true,
        call: JSON.parse(post[0].body),
      }),
    );
  });

  it('never bills ringing: an unanswered call costs nothing and writes no ledger entry', async () => {
    const { store, started, report, endedAt } = setup();
    const { user, call } = await started();
    await report(call.id, { type: 'ringing' });

    await endedAt(call.id, 40, { status: 'no-answer', duration: 40 });

    expect(await store.calls.findById(call.id)).toEqual(
      expect.objectContaining({ status: 'no-answer', duration: 0, cost: 0, finishedAt: after(40) }),
    );
    expect((await store.ledger.list(user.id, { page: 1, perPage: 15 })).total).toBe(0);
    expect((await store.users.findById(user.id))?.balance).toBe(5);
  });

  it('charges the duration the runtime measured, even below zero balance', async () => {
    const { store, started, answeredAt, endedAt } = setup();
    const { user, call } = await started({ balance: 0.1 });
    await answeredAt(call.id, 0);

    await endedAt(call.id, 10, { status: 'completed', duration: 150 });

    expect(await store.calls.findById(call.id)).toEqual(expect.objectContaining({ duration: 150, cost: 0.3 }));
    expect((await store.users.findById(user.id))?.balance).toBe(-0.2);
  });

  it('sends post_call only for completed calls unless the assistant asks for every end, and never with the webhook off', async () => {
    const { store, started, endedAt } = setup();
    const onlyCompleted = await started();
    const every = await started({ assistant: { sendWebhookOnlyOnCompleted: false } });
    const off = await started({ assistant: { isWebhookActive: false, webhookUrl: null } });

    for (const { call } of [onlyCompleted, every, off]) await endedAt(call.id, 30, { status: 'busy' });

    expect((await store.deliveries.list(onlyCompleted.user.id, {}, { page: 1, perPage: 15 })).total).toBe(0);
    expect((await store.deliveries.list(every.user.id, {}, { page: 1, perPage: 15 })).total).toBe(1);
    expect((await store.deliveries.list(off.user.id, {}, { page: 1, perPage: 15 })).total).toBe(0);
    expect(store.outbox.events(CALL_ENDED_TOPIC)).toHaveLength(3);
  });

  it('follows the settings the call started with: recording and extraction', async () => {
    const { store, started, answeredAt, endedAt } = setup();
    const unrecorded = await started({ assistant: { record: false, postCallEvaluation: false } });
    const evaluated = await started({
      assistant: { postCallSchema: [{ name: 'city', type: 'string', description: 'Where' }] },
    });
    // Changed after the start: the running call keeps what it started with.
    await store.assistants.update(evaluated.user.id, evaluated.assistant.id, async (current) =>
      ok({
        write: {
          kind: 'config' as const,
          config: { ...current, record: false, postCallEvaluation: false },
          replace: { toolIds: false, labelIds: false },
        },
      }),
    );
    for (const { call } of [unrecorded, evaluated]) await answeredAt(call.id, 1);

    await endedAt(unrecorded.call.id, 20, {
      status: 'completed',
      recordingUrl: 'https://rec.example.com/x.mp3',
      extractedVariables: { status: true },
    });
    await endedAt(evaluated.call.id, 20, { status: 'completed', recordingUrl: 'https://rec.example.com/y.mp3' });

    expect(await store.calls.findById(unrecorded.call.id)).toEqual(
      expect.objectContaining({ recordingUrl: null, extractedVariables: {} }),
    );
    expect(await store.calls.findById(evaluated.call.id)).toEqual(
      expect.objectContaining({
        recordingUrl: 'https://rec.example.com/y.mp3',
        extractedVariables: { city: null, status: false, summary: '' },
      }),
    );
  });

  it('accepts an end once: a repeated event id gets the first answer, another end is refused, nothing is charged twice', async () => {
    const { store, events, started, answeredAt } = setup();
    const { user, call } = await started();
    await answeredAt(call.id, 0);
    store.clock.set(after(30));
    const end = {
      eventId: 'end-1',
      occurredAt: null,
      event: { type: 'ended' as const, outcome: { status: 'completed' as const } },
    };

    expect(await events.record(call.id, end)).toEqual(ok({ callId: call.id, status: 'completed', duplicate: false }));
    expect(await events.record(call.id, end)).toEqual(ok({ callId: call.id, status: 'completed', duplicate: true }));
    expect(
      await events.record(call.id, {
        ...end,
        eventId: 'end-2',
        event: { type: 'ended', outcome: { status: 'failed' } },
      }),
    ).toEqual(err({ code: 'invalid_transition', from: 'completed', event: 'ended', to: 'failed' }));
    expect(await events.record(9_999, end)).toEqual(err({ code: 'call_not_found' }));
    expect((await store.ledger.list(user.id, { page: 1, perPage: 15 })).total).toBe(1);
    expect(store.outbox.events(CALL_ENDED_TOPIC)).toHaveLength(1);
  });
});
