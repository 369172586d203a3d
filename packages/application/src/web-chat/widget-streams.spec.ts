import { ManualClock, RecordingLogger, SequentialIds } from '@voiceplane/adapter-fakes';
import { ConversationMessage } from '@voiceplane/domain';
import { BusMessage, MessageBus } from '../ports';
import { LiveChatMessage, ReplyDrafts, WEB_CHAT_DRAFT_TOPIC, WEB_CHAT_MESSAGE_TOPIC } from './live-chat';
import { LiveChatEvent, WidgetStreams } from './widget-streams';

const CHAT = { id: 7, uuid: '0b6f3f7e-1d1c-4a43-9a55-2f7b2f0c0a11' };
const at = new Date('2026-12-01T10:00:00.000Z');

const stored = (id: number, source: 'customer' | 'ai' | 'system' = 'ai'): ConversationMessage =>
  ({ id, conversationId: CHAT.id, source, body: `m${id}`, createdAt: at }) as unknown as ConversationMessage;
const onBus = (id: number): BusMessage => ({
  id: `e${id}`,
  topic: WEB_CHAT_MESSAGE_TOPIC,
  occurredAt: at.toISOString(),
  payload: {
    user_id: 1,
    conversation_id: CHAT.uuid,
    type: 'widget',
    message: { id, role: 'assistant', source: 'ai', content: `m${id}`, created_at: at.toISOString() },
  } satisfies LiveChatMessage,
});
const draft = (delta: string): BusMessage => ({
  id: `d-${delta}`,
  topic: WEB_CHAT_DRAFT_TOPIC,
  occurredAt: at.toISOString(),
  payload: { user_id: 1, conversation_id: CHAT.uuid, draft: '5-1', delta },
});

function reader() {
  const got: LiveChatEvent[] = [];
  let ended = false;
  return {
    got,
    ended: () => ended,
    shown: () => got.map((e) => (e.kind === 'message' ? e.message.id : e.kind === 'draft' ? e.delta : 'x')),
    reader: { deliver: (e: LiveChatEvent) => got.push(e), end: () => (ended = true) },
  };
}

describe('widget streams', () => {
  it('reads the backlog after the last id, holds what the bus brings meanwhile, and passes each message once', async () => {
    let streams!: WidgetStreams;
    const backlog = {
      // While the backlog is read, message 3 (also in the backlog) and 4 arrive on the bus.
      messagesAfter: async (_id: number, after: number) => {
        if (after !== 1) return [];
        await streams.receive(onBus(3));
        await streams.receive(draft('Hel'));
        await streams.receive(onBus(4));
        return [stored(2, 'customer'), stored(3)];
      },
    };
    streams = new WidgetStreams(backlog, { perChat: 3, heartbeatMs: 1000 });
    const r = reader();
    const opened = await streams.open(CHAT, 1, r.reader);
    await streams.receive(onBus(4)); // a redelivery
    await streams.receive(onBus(5));
    expect(r.shown()).toEqual([2, 3, 'Hel', 4, 5]);
    opened.close();
    await streams.receive(onBus(6));
    expect(r.shown()).toEqual([2, 3, 'Hel', 4, 5]);
    expect(streams.openStreams(CHAT.uuid)).toBe(0);
  });

  it('skips system notes, ignores other chats, and ends the oldest stream past the per-chat bound', async () => {
    const streams = new WidgetStreams(
      { messagesAfter: async () => [stored(1, 'system')] },
      { perChat: 2, heartbeatMs: 1 },
    );
    const [a, b, c] = [reader(), reader(), reader()];
    await streams.open(CHAT, 0, a.reader);
    await streams.open(CHAT, 0, b.reader);
    await streams.open(CHAT, 0, c.reader);
    expect([a.ended(), b.ended(), c.ended()]).toEqual([true, false, false]);
    await streams.receive({ ...onBus(9), payload: { ...(onBus(9).payload as object), conversation_id: 'other' } });
    expect(c.got).toEqual([]);
    streams.endAll();
    expect([b.ended(), c.ended()]).toEqual([true, true]);
  });
});

describe('reply drafts', () => {
  it('publishes in order, one publish at a time, pieces that waited going together; a withdrawn draft says so', async () => {
    const published: BusMessage[][] = [];
    let release!: () => void;
    const bus = {
      publish: async (messages: readonly BusMessage[]) => {
        published.push([...messages]);
        if (published.length === 1) await new Promise<void>((resolve) => (release = resolve));
      },
    } as unknown as MessageBus;
    const drafts = new ReplyDrafts(bus, new SequentialIds(), new ManualClock(at), new RecordingLogger());
    const conversation = { id: 7, uuid: CHAT.uuid, userId: 1, type: 'widget' } as never;
    const writer = drafts.open(conversation, 5);
    writer.write('Hel', 1);
    writer.write('lo', 1);
    writer.write(' there', 1);
    writer.write('Again', 2);
    release();
    await writer.finish(true);
    expect(published.map((batch) => batch.map((m) => m.payload))).toEqual([
      [{ user_id: 1, conversation_id: CHAT.uuid, draft: '5-1', delta: 'Hel' }],
      [
        { user_id: 1, conversation_id: CHAT.uuid, draft: '5-1', delta: 'lo there' },
        { user_id: 1, conversation_id: CHAT.uuid, draft: '5-2', delta: 'Again' },
        { user_id: 1, conversation_id: CHAT.uuid, draft: '5-2', delta: '', discarded: true },
      ],
    ]);
    expect(published.flat().every((m) => m.topic === WEB_CHAT_DRAFT_TOPIC)).toBe(true);
  });

  it('publishes nothing for a chat no live view follows, and gives up quietly on a bus that refuses', async () => {
    let calls = 0;
    const bus = {
      publish: async () => {
        calls += 1;
        throw new Error('broker gone');
      },
    } as unknown as MessageBus;
    const log = new RecordingLogger();
    const drafts = new ReplyDrafts(bus, new SequentialIds(), new ManualClock(at), log);
    const test = drafts.open({ id: 1, uuid: CHAT.uuid, userId: 1, type: 'test' } as never, 2);
    test.write('x', 1);
    await test.finish(false);
    expect(calls).toBe(0);
    const widget = drafts.open({ id: 1, uuid: CHAT.uuid, userId: 1, type: 'widget' } as never, 2);
    widget.write('a', 1);
    await widget.finish(false);
    widget.write('b', 1);
    await widget.finish(true);
    expect(calls).toBe(1);
    expect(log.lines.filter((e) => e.level === 'warn')).toHaveLength(1);
  });
});
