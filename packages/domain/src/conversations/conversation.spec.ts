import { windowExpiresAt } from '../chatapp/window';
import {
  Conversation,
  conversationWindowExpiresAt,
  newConversation,
  recordMessage,
  RecordedMessage,
} from './conversation';

const t0 = new Date('2026-03-01T10:00:00.000Z');
const min = (m: number) => new Date(t0.getTime() + m * 60_000);
const fresh = newConversation(
  { id: 880, uuid: '9b2f6c1e-4a7d-4c1b-9d7e-2f1a0c3b5e66', userId: 1, senderId: 12, customerPhone: '+14155551234' },
  t0,
);
const msg = (m: Partial<RecordedMessage>): RecordedMessage => ({
  source: 'customer',
  type: 'text',
  at: min(1),
  assistantId: 101,
  ...m,
});

describe('conversation record', () => {
  it('a new conversation is open, AI on, never ended, window closed', () => {
    expect(fresh).toMatchObject({
      type: 'chatapp',
      status: 'open',
      aiEnabled: true,
      aiDisabledAt: null,
      messageCount: 0,
      endedCount: 0,
      endedAt: null,
      lastMessageAt: null,
    });
    expect(conversationWindowExpiresAt(fresh)).toBeNull();
  });

  it('a customer message counts, sets the assistant and opens the window', () => {
    const { next, events } = recordMessage(fresh, msg({ customerName: 'Ann' }));
    expect(next).toMatchObject({
      messageCount: 1,
      lastMessageAt: min(1),
      assistantId: 101,
      customerName: 'Ann',
      window: { lastCustomerMessageAt: min(1), lastTemplateSentAt: null },
    });
    expect(events).toEqual([
      { type: 'window_opened', openedBy: 'customer', expiresAt: new Date('2026-03-02T10:01:00.000Z') },
    ]);
  });

  it.each([
    ['template (api)', { source: 'api', type: 'template' }],
    ['template (automation)', { source: 'automation', type: 'template' }],
    ['call-permission request', { source: 'api', type: 'voice_call_request' }],
  ] as const)('a %s send opens the window', (_name, m) => {
    const { next } = recordMessage(fresh, msg(m));
    expect(next.window).toEqual({ lastCustomerMessageAt: null, lastTemplateSentAt: min(1) });
  });

  it.each([
    ['freeform text (api)', { source: 'api', type: 'text' }],
    ['freeform media (api)', { source: 'api', type: 'media' }],
    ['AI reply', { source: 'ai', type: 'text' }],
    ['automation freeform', { source: 'automation', type: 'text' }],
  ] as const)('a %s never extends the window', (_name, m) => {
    const opened = recordMessage(fresh, msg({ at: min(0) })).next;
    const { next, events } = recordMessage(opened, msg({ ...m, at: min(60) }));
    expect(windowExpiresAt(next.window)).toEqual(windowExpiresAt(opened.window));
    expect(events).toEqual([]);
    expect(next.lastMessageAt).toEqual(min(60));
  });

  it('customer name is kept when a later message names no one', () => {
    const named = recordMessage(fresh, msg({ customerName: 'Ann' })).next;
    expect(recordMessage(named, msg({ at: min(2) })).next.customerName).toBe('Ann');
  });

  it('the assistant follows the sender at the time of the last message (null when none)', () => {
    const first = recordMessage(fresh, msg({})).next;
    expect(recordMessage(first, msg({ at: min(2), assistantId: null })).next.assistantId).toBeNull();
  });

  it('a late message never moves last_message_at backwards', () => {
    const first = recordMessage(fresh, msg({ at: min(10) })).next;
    expect(recordMessage(first, msg({ at: min(5) })).next.lastMessageAt).toEqual(min(10));
  });
});

describe('reopen on new traffic (row 2)', () => {
  const ended: Conversation = {
    ...fresh,
    status: 'ended',
    endedAt: min(30),
    endedCount: 1,
    aiEnabled: false,
    aiDisabledAt: min(5),
  };

  it.each([
    ['inbound customer message', { source: 'customer', type: 'text' }],
    ['outbound template', { source: 'api', type: 'template' }],
    ['outbound freeform', { source: 'api', type: 'text' }],
  ] as const)('ended + %s → open, ended_at null, ai_enabled unchanged', (_name, m) => {
    const { next, events } = recordMessage(ended, msg({ ...m, at: min(40) }));
    expect(next).toMatchObject({
      status: 'open',
      endedAt: null,
      endedCount: 1,
      aiEnabled: false,
      aiDisabledAt: min(5),
    });
    expect(events[0]).toEqual({ type: 'conversation_reopened', at: min(40) });
  });

  it('an open conversation raises no reopen event', () => {
    expect(recordMessage(fresh, msg({ source: 'api', type: 'text' })).events).toEqual([]);
  });
});
