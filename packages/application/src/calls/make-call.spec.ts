import {
  FakeStore,
  InMemoryDoNotCallList,
  RecordingLogger,
  RecordingVoiceRuntime,
  SAMPLE_CATALOG,
} from '@voiceplane/adapter-fakes';
import { AssistantConfig, CallerLine, DEFAULT_CALL_MINUTE_PRICES, draftAssistant, err, ok } from '@voiceplane/domain';
import { BalanceService } from '../billing';
import { PhoneNumberRepository, SipTrunkRepository } from '../telephony';
import { WebhookDeliveries } from '../webhooks';
import { CallConfigurations } from './call-configurations';
import { CallerLines } from './caller-lines';
import { CALL_ENDED_TOPIC, EndCall } from './end-call';
import { CALL_DISPATCH_WATCHDOG_JOB, callDispatchWatchdog, DISPATCH_WATCHDOG_MS, MakeCall } from './make-call';
import { RecordCallEvent } from './record-call-event';

const START = new Date('2030-05-01T12:00:00.000Z');
const PLATFORM_LINE: CallerLine = { phoneNumberId: null, phoneNumber: '+15550000000', sip: null };
const CUSTOMER = '+14155551234';

/** Assistants here have no number of their own, so the line is the platform's and no number is ever looked up. */
const noTelephony = new Proxy(
  {},
  {
    get: (_, method) => () => {
      throw new Error(`telephony is not part of these tests (${String(method)})`);
    },
  },
) as PhoneNumberRepository & SipTrunkRepository;

function setup(platformLine: CallerLine | null = PLATFORM_LINE) {
  const store = new FakeStore(START);
  const runtime = new RecordingVoiceRuntime(platformLine);
  const log = new RecordingLogger();
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
    new EndCall(store.assistants, balance, deliveries, DEFAULT_CALL_MINUTE_PRICES),
    store.clock,
  );
  const doNotCall = new InMemoryDoNotCallList();
  const makeCall = new MakeCall(
    { uow: store.uow, assistants: store.assistants, users: store.users, calls: store.calls, doNotCall },
    {
      lines: new CallerLines(noTelephony, noTelephony, runtime.platformLine),
      configurations: new CallConfigurations(store.tools, store.catalog, store.assistants),
      prices: DEFAULT_CALL_MINUTE_PRICES,
    },
    { scheduler: store.jobs, runtime, events },
    store.clock,
    log,
  );
  const assistant = async (userId: number, over: Partial<AssistantConfig> = {}) => {
    const saved = await store.assistants.create(userId, {
      ...draftAssistant({ name: 'Sales' }, SAMPLE_CATALOG),
      maxDuration: 300,
      ringingTime: 20,
      ...over,
    });
    if (saved === 'inbound_number_taken') throw new Error('inbound number taken');
    return saved;
  };
  return { store, runtime, log, events, makeCall, assistant, doNotCall };
}

describe('MakeCall', () => {
  it('stores the call with the configuration it starts with, watches its dispatch and hands it to the runtime', async () => {
    const { store, runtime, makeCall, assistant } = setup();
    const user = await store.account({ balance: 5 });
    const sales = await assistant(user.id, { variables: { company: 'Acme', greeting: 'Hi' } });

    const result = await makeCall.execute({
      userId: user.id,
      assistantId: sales.id,
      phoneNumber: CUSTOMER,
      variables: { greeting: 'Hello' },
    });

    expect(result).toEqual(ok({ callId: expect.any(Number) }));
    const callId = result.ok ? result.value.callId : 0;
    const call = await store.calls.findById(callId);
    expect(call).toEqual(
      expect.objectContaining({
        userId: user.id,
        assistantId: sales.id,
        direction: 'outbound',
        channel: 'phone',
        status: 'initiated',
        customerPhone: CUSTOMER,
        assistantPhone: PLATFORM_LINE.phoneNumber,
        phoneNumberId: null,
        variables: { greeting: 'Hello' },
        createdAt: START,
      }),
    );
    expect(call?.runtimeConfig).toEqual(
      expect.objectContaining({
        direction: 'outbound',
        customer_phone: CUSTOMER,
        assistant_phone: PLATFORM_LINE.phoneNumber,
        sip: null,
        variables: { company: 'Acme', greeting: 'Hello' },
      }),
    );
    expect(call?.runtimeConfig.assistant).toEqual(
      expect.objectContaining({ id: sales.id, language: 'en', name: 'Sales' }),
    );
    expect(store.jobs.jobs()).toEqual([
      expect.objectContaining({
        kind: CALL_DISPATCH_WATCHDOG_JOB,
        key: `call-dispatch:${callId}`,
        payload: { call_id: callId },
        runAt: new Date(START.getTime() + DISPATCH_WATCHDOG_MS),
      }),
    ]);
    expect(runtime.placed).toEqual([
      {
        callId,
        userId: user.id,
        customerPhone: CUSTOMER,
        line: PLATFORM_LINE,
        ringingTimeSeconds: 20,
        maxDurationSeconds: 300,
      },
    ]);
    expect((await store.users.findById(user.id))?.balance).toBe(5);
  });

  it("refuses in the contract's order and stores nothing", async () => {
    const { store, runtime, makeCall, assistant } = setup();
    const user = await store.account({ balance: 5 });
    const other = await store.account({ balance: 5 });
    const call = (assistantId: number, userId = user.id) =>
      makeCall.execute({ userId, assistantId, phoneNumber: CUSTOMER, variables: {} });
    const inbound = await assistant(user.id, { type: 'inbound' });
    const blocked = await assistant(user.id);
    await store.assistants.setCompliance(blocked.id, true, 'review');
    const foreign = await assistant(other.id);

    expect(await call(9_999)).toEqual(err('assistant_not_found'));
    expect(await call(foreign.id)).toEqual(err('assistant_not_found'));
    expect(await call(inbound.id)).toEqual(err('not_outbound'));
    expect(await call(blocked.id)).toEqual(err('compliance_blocked'));
    expect(await store.calls.countActive(user.id)).toBe(0);
    expect(store.jobs.jobs()).toEqual([]);
    expect(runtime.placed).toEqual([]);
  });

  it("refuses a number on the account's do-not-call list before anything else, and only that account's", async () => {
    const { store, runtime, makeCall, assistant, doNotCall } = setup();
    const user = await store.account({ balance: 5 });
    const other = await store.account({ balance: 5 });
    await doNotCall.add(user.id, [{ phoneNumber: CUSTOMER, reason: null }], START);
    const request = { assistantId: 999_999, phoneNumber: CUSTOMER, variables: {} };
    expect(await makeCall.execute({ ...request, userId: user.id })).toEqual(err('do_not_call'));
    const theirs = await assistant(other.id);
    expect(await makeCall.execute({ ...request, userId: other.id, assistantId: theirs.id })).toEqual(
      ok({ callId: expect.any(Number) }),
    );
    expect(runtime.placed).toHaveLength(1);
  });

  it('needs one minute of balance at the phone price', async () => {
    const { store, makeCall, assistant } = setup();
    const poor = await store.account({ balance: 0.09 });
    const enough = await store.account({ balance: 0.1 });

    expect(
      await makeCall.execute({
        userId: poor.id,
        assistantId: (await assistant(poor.id)).id,
        phoneNumber: CUSTOMER,
        variables: {},
      }),
    ).toEqual(err('insufficient_balance'));
    expect(
      (
        await makeCall.execute({
          userId: enough.id,
          assistantId: (await assistant(enough.id)).id,
          phoneNumber: CUSTOMER,
          variables: {},
        })
      ).ok,
    ).toBe(true);
  });

  it('refuses without a line to call from', async () => {
    const { store, makeCall, assistant } = setup(null);
    const user = await store.account({ balance: 5 });

    expect(
      await makeCall.execute({
        userId: user.id,
        assistantId: (await assistant(user.id)).id,
        phoneNumber: CUSTOMER,
        variables: {},
      }),
    ).toEqual(err('no_caller_line'));
  });

  it("holds the plan's number of calls in progress; an ended call frees its place", async () => {
    const { store, events, makeCall, assistant } = setup();
    const user = await store.account({ balance: 5, plan: { max_concurrent_calls: 2 } });
    const sales = await assistant(user.id);
    const call = () =>
      makeCall.execute({ userId: user.id, assistantId: sales.id, phoneNumber: CUSTOMER, variables: {} });

    const first = await call();
    expect((await call()).ok).toBe(true);
    expect(await call()).toEqual(err('too_many_calls'));
    expect(await store.calls.countActive(user.id)).toBe(2);

    const firstId = first.ok ? first.value.callId : 0;
    await events.record(firstId, {
      eventId: 'e-1',
      occurredAt: null,
      event: { type: 'ended', outcome: { status: 'no-answer' } },
    });
    expect((await call()).ok).toBe(true);
  });

  it('ends a call the runtime refused as failed, through the normal end, without a charge', async () => {
    const { store, runtime, log, makeCall, assistant } = setup();
    const user = await store.account({ balance: 5 });
    const sales = await assistant(user.id);
    runtime.refuseNext();

    expect(
      await makeCall.execute({ userId: user.id, assistantId: sales.id, phoneNumber: CUSTOMER, variables: {} }),
    ).toEqual(err('dispatch_failed'));

    const [call] = (await store.calls.list(user.id, {}, { page: 1, perPage: 15 })).items;
    expect(call).toEqual(
      expect.objectContaining({
        status: 'failed',
        endedReason: 'dispatch_failed',
        duration: 0,
        cost: 0,
        finishedAt: START,
      }),
    );
    expect(store.outbox.events(CALL_ENDED_TOPIC).map((e) => e.payload)).toEqual([
      expect.objectContaining({ call_id: call.id, status: 'failed', answered: false }),
    ]);
    expect((await store.users.findById(user.id))?.balance).toBe(5);
    expect(log.lines).toEqual([
      expect.objectContaining({ level: 'warn', message: 'the voice runtime refused a call' }),
    ]);
  });

  it('has its watchdog fail a call whose dispatch was lost, and only while it is still initiated', async () => {
    const { store, events, makeCall, assistant } = setup();
    const user = await store.account({ balance: 5 });
    const sales = await assistant(user.id);
    const lost = await makeCall.execute({
      userId: user.id,
      assistantId: sales.id,
      phoneNumber: CUSTOMER,
      variables: {},
    });
    const rang = await makeCall.execute({
      userId: user.id,
      assistantId: sales.id,
      phoneNumber: CUSTOMER,
      variables: {},
    });
    const [lostId, rangId] = [lost, rang].map((r) => (r.ok ? r.value.callId : 0));
    await events.record(rangId, { eventId: 'r-1', occurredAt: null, event: { type: 'ringing' } });
    store.clock.advance(DISPATCH_WATCHDOG_MS);

    const watchdog = callDispatchWatchdog(events);
    for (const callId of [lostId, rangId])
      await watchdog.handle({
        id: callId,
        kind: CALL_DISPATCH_WATCHDOG_JOB,
        key: null,
        payload: { call_id: callId },
        attempts: 1,
        leaseToken: 't',
      });

    expect(await store.calls.findById(lostId)).toEqual(
      expect.objectContaining({ status: 'failed', endedReason: 'dispatch_lost', finishedAt: store.clock.now() }),
    );
    expect((await store.calls.findById(rangId))?.status).toBe('ringing');
  });
});
