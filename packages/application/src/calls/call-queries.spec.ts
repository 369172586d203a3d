import { FakeStore, InMemoryChatappCallReportRepository, InMemoryToolInvocationLog } from '@voiceplane/adapter-fakes';
import { CallChannel, openChatappCallReport, RuntimeConfig } from '@voiceplane/domain';
import { CallQueries } from './call-queries';

/** Reads of calls on the in-memory repositories (proven by the call and report contract suites). */

const START = new Date('2030-05-01T12:00:00.000Z');
const CONFIG = { greeting: 'Hello' } as unknown as RuntimeConfig;

function setup() {
  const store = new FakeStore(START);
  const toolCalls = new InMemoryToolInvocationLog();
  const reports = new InMemoryChatappCallReportRepository(store.calls);
  const queries = new CallQueries(store.calls, toolCalls, reports);
  const callOf = async (userId: number, channel: CallChannel) =>
    (
      await store.calls.create({
        userId,
        assistantId: 1,
        direction: 'outbound',
        channel,
        status: 'initiated',
        customerPhone: '+14155551234',
        line: null,
        variables: {},
        runtimeConfig: CONFIG,
        senderId: channel === 'chatapp' ? 7 : null,
        now: store.clock.now(),
      })
    ).call;
  return { store, toolCalls, reports, queries, callOf };
}

it("gives the owner the call with its tool calls, and another account's call as not found", async () => {
  const { toolCalls, queries, callOf } = setup();
  const call = await callOf(1, 'phone');
  const start = {
    id: 'tin_1',
    callId: call.id,
    userId: 1,
    toolId: 3,
    name: 'lookup_order',
    invocationId: null,
    at: START,
  };
  toolCalls.record(start, {
    ok: true,
    statusCode: 200,
    content: '{}',
    truncated: false,
    durationMs: 12,
    error: null,
    warnings: [],
  });

  const found = await queries.get(1, call.id);
  expect(found).toEqual({
    ok: true,
    value: {
      call: expect.objectContaining({ id: call.id }),
      toolCalls: [expect.objectContaining({ id: 'tin_1', name: 'lookup_order' })],
      report: null,
    },
  });
  expect(await queries.get(2, call.id)).toEqual({ ok: false, error: 'call_not_found' });
  expect(await queries.get(1, call.id + 1)).toEqual({ ok: false, error: 'call_not_found' });
});

it("adds the chat app's report to a chat-app call only", async () => {
  const { reports, queries, callOf } = setup();
  const chatapp = await callOf(1, 'chatapp');
  const phone = await callOf(1, 'phone');
  const event = { metaCallId: 'wacid.1', event: 'connect' as const, at: START, status: null, duration: null };
  for (const callId of [chatapp.id, phone.id]) {
    await reports.record(
      { metaCallId: `wacid.${callId}`, senderId: 7, customerPhone: '+14155551234', endedSince: START },
      () => ({ next: openChatappCallReport(callId, { ...event, metaCallId: `wacid.${callId}` }), answer: undefined }),
    );
  }

  const withReport = await queries.get(1, chatapp.id);
  expect(withReport.ok && withReport.value.report).toEqual(
    expect.objectContaining({ callId: chatapp.id, metaCallId: `wacid.${chatapp.id}` }),
  );
  const withoutReport = await queries.get(1, phone.id);
  expect(withoutReport.ok && withoutReport.value.report).toBeNull();
});

it("gives the runtime any call's configuration, and a missing call as not found", async () => {
  const { queries, callOf } = setup();
  const call = await callOf(2, 'phone');
  expect(await queries.runtimeConfig(call.id)).toEqual({ ok: true, value: { callId: call.id, config: CONFIG } });
  expect(await queries.runtimeConfig(call.id + 1)).toEqual({ ok: false, error: 'call_not_found' });
});

it("lists the owner's calls only, with the filter", async () => {
  const { queries, callOf } = setup();
  const mine = await callOf(1, 'phone');
  await callOf(1, 'chatapp');
  await callOf(2, 'phone');
  const page = await queries.list(1, { channel: 'phone' }, { page: 1, perPage: 10 });
  expect(page.total).toBe(1);
  expect(page.items.map((c) => c.id)).toEqual([mine.id]);
});
