import {
  InMemoryCallRepository,
  InMemoryChatappCallReportRepository,
  InMemoryOutbox,
  RecordingLogger,
} from '@voiceplane/adapter-fakes';
import { ok, RuntimeConfig, Sender } from '@voiceplane/domain';
import { ChatappCallEventItem, ChatappCallEventsInbound, RecordChatappCallEvent } from './chatapp-call-reports';

const T0 = new Date('2030-05-01T10:00:00.000Z');
const at = (s: number) => new Date(T0.getTime() + s * 1000);
const PHONE = '+4915112345678';

function setup() {
  const calls = new InMemoryCallRepository(new InMemoryOutbox());
  const reports = new InMemoryChatappCallReportRepository(calls);
  const sender = { id: 12, userId: 1 } as Sender;
  const senders = { findByProviderRef: async (ref: string) => (ref === 'pn-12' ? sender : null) };
  const recorder = new RecordChatappCallEvent(senders, reports, new RecordingLogger());
  const place = async (created: number) =>
    (
      await calls.create({
        userId: 1,
        assistantId: 1,
        direction: 'outbound',
        channel: 'chatapp',
        status: 'queued',
        customerPhone: PHONE,
        line: { phoneNumberId: null, phoneNumber: '+4930123456', sip: null },
        variables: {},
        runtimeConfig: {} as RuntimeConfig,
        senderId: 12,
        now: at(created),
      })
    ).call.id;
  const item = (
    event: 'connect' | 'terminate',
    s: number,
    over: Partial<ChatappCallEventItem> = {},
  ): ChatappCallEventItem => ({
    kind: 'call_event',
    providerItemId: `wacid.A:${event}`,
    providerSenderRef: 'pn-12',
    providerCallId: 'wacid.A',
    event,
    at: at(s),
    customerPhone: PHONE,
    status: event === 'terminate' ? 'completed' : null,
    duration: event === 'terminate' ? 30 : null,
    ...over,
  });
  return { calls, reports, recorder, place, item };
}

describe('RecordChatappCallEvent', () => {
  it('binds the first event to the open call, records each event once and leaves the call as it is', async () => {
    const { calls, reports, recorder, place, item } = setup();
    const id = await place(0);
    expect(await recorder.record(item('connect', 10))).toBe('recorded');
    expect(await recorder.record(item('connect', 10))).toBe('duplicate');
    expect(await recorder.record(item('terminate', 40, { customerPhone: null }))).toBe('recorded');
    expect(await reports.findByCallId(id)).toEqual({
      callId: id,
      metaCallId: 'wacid.A',
      connectAt: at(10),
      terminateAt: at(40),
      duration: 30,
      status: 'completed',
    });
    expect(await calls.findById(id)).toMatchObject({ status: 'queued' });
  });

  it('acknowledges events of unknown senders, unnamed customers and calls long ended or never placed', async () => {
    const { calls, recorder, place, item } = setup();
    expect(await recorder.record(item('connect', 10))).toBe('unmatched');
    const id = await place(0);
    await calls.update(id, async () =>
      ok({ changes: { status: 'completed', finishedAt: at(60) }, at: at(60), answer: null }),
    );
    expect(await recorder.record(item('connect', 60 + 11 * 60))).toBe('unmatched');
    expect(await recorder.record(item('connect', 70, { customerPhone: null }))).toBe('unmatched');
    expect(await recorder.record(item('connect', 70, { providerSenderRef: 'pn-99' }))).toBe('unknown_sender');
    expect(await recorder.record(item('connect', 70))).toBe('recorded');
  });

  it('takes call events in front of the chat-app handler, which gets every other item', async () => {
    const { recorder, place, item } = setup();
    await place(0);
    const handled: string[] = [];
    const inbound = new ChatappCallEventsInbound({ handle: async (i) => void handled.push(i.kind) }, recorder);
    await inbound.handle(item('connect', 10));
    await inbound.handle({
      kind: 'account_status',
      providerItemId: 'a',
      providerAccountRef: 'waba',
      status: 'offline',
    });
    expect(handled).toEqual(['account_status']);
  });
});
