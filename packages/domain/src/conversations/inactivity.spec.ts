import { Conversation, newConversation, recordMessage } from './conversation';
import {
  DEFAULT_INACTIVITY_TIMEOUT_MINUTES,
  endOnInactivity,
  inactivityDeadline,
  inactivityTimeoutMinutes,
} from './inactivity';

const t0 = new Date('2026-03-01T10:00:00.000Z');
const min = (m: number) => new Date(t0.getTime() + m * 60_000);
const created = newConversation(
  { id: 880, uuid: '9b2f6c1e-4a7d-4c1b-9d7e-2f1a0c3b5e66', userId: 1, senderId: 12, customerPhone: '+14155551234' },
  t0,
);
const open: Conversation = recordMessage(created, {
  source: 'customer',
  type: 'text',
  at: min(1),
  assistantId: 101,
}).next;
const hook = { url: 'https://hooks.example.com/ended', retrigger: false };

describe('inactivity timeout', () => {
  it('the assistant timeout, 30 minutes when there is no assistant', () => {
    expect(inactivityTimeoutMinutes({ conversationInactivityTimeout: 45 })).toBe(45);
    expect(inactivityTimeoutMinutes(null)).toBe(30);
    expect(DEFAULT_INACTIVITY_TIMEOUT_MINUTES).toBe(30);
  });

  it('deadline = last message in either direction + timeout; creation time before any message; none once ended', () => {
    expect(inactivityDeadline(open, 30)).toEqual(min(31));
    const replied = recordMessage(open, { source: 'ai', type: 'text', at: min(20), assistantId: 101 }).next;
    expect(inactivityDeadline(replied, 30)).toEqual(min(50));
    expect(inactivityDeadline(created, 30)).toEqual(min(30));
    expect(inactivityDeadline({ ...open, status: 'ended' }, 30)).toBeNull();
  });
});

describe('end on inactivity (row 1)', () => {
  it('open + no message for the timeout → ended, ended_at = now, ended_count + 1, webhook on the first end', () => {
    const r = endOnInactivity(open, min(31), 30, hook);
    expect(r).toEqual({
      ok: true,
      value: {
        next: { ...open, status: 'ended', endedAt: min(31), endedCount: 1, updatedAt: min(31) },
        events: [{ type: 'conversation_ended', at: min(31), endedCount: 1, notifyWebhook: true }],
      },
    });
  });

  it('before the deadline: not due', () => {
    expect(endOnInactivity(open, new Date(min(31).getTime() - 1), 30, hook)).toEqual({
      ok: false,
      error: { code: 'not_due', deadline: min(31) },
    });
  });

  it('an ended conversation does not end again', () => {
    const ended = (endOnInactivity(open, min(31), 30, hook) as { value: { next: Conversation } }).value.next;
    expect(endOnInactivity(ended, min(90), 30, hook)).toEqual({ ok: false, error: { code: 'not_open' } });
  });

  it.each([
    ['second end, retrigger false', 1, hook, false],
    ['second end, retrigger true', 1, { ...hook, retrigger: true }, true],
    ['first end, no webhook URL', 0, { url: null, retrigger: true }, false],
    ['first end, no assistant', 0, null, false],
  ] as const)('%s → webhook %s', (_name, endedBefore, webhook, notify) => {
    const r = endOnInactivity({ ...open, endedCount: endedBefore }, min(31), 30, webhook);
    expect(r.ok && r.value.events[0]).toMatchObject({ endedCount: endedBefore + 1, notifyWebhook: notify });
  });

  it('ai_enabled is untouched by the end', () => {
    const r = endOnInactivity({ ...open, aiEnabled: false }, min(31), 30, hook);
    expect(r.ok && r.value.next.aiEnabled).toBe(false);
  });
});
