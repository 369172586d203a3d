import { aiReplyFate, aiReplySkip, disableAi, enableAi, shouldGenerateAiReply } from './ai-takeover';
import { newConversation } from './conversation';

const t0 = new Date('2026-03-01T10:00:00.000Z');
const min = (m: number) => new Date(t0.getTime() + m * 60_000);
const on = newConversation(
  { id: 880, uuid: '9b2f6c1e-4a7d-4c1b-9d7e-2f1a0c3b5e66', userId: 1, senderId: 12, customerPhone: '+14155551234' },
  t0,
);
const off = disableAi(on, min(5)).next;

describe('AI takeover', () => {
  it('ai_enabled true + disable-ai → false, ai_disabled_at = now', () => {
    const { next, events } = disableAi(on, min(5));
    expect(next).toMatchObject({ aiEnabled: false, aiDisabledAt: min(5), updatedAt: min(5) });
    expect(events).toEqual([{ type: 'ai_disabled', at: min(5) }]);
  });

  it('disable-ai: replies being generated are discarded', () => {
    expect(aiReplyFate(on, min(4))).toBe('send');
    expect(aiReplyFate(off, min(4))).toBe('discard');
  });

  it('disable-ai: new customer messages are stored without AI reply', () => {
    expect(shouldGenerateAiReply(off, { status: 'active', complianceBlocked: false })).toBe(false);
  });

  it('ai_enabled false + enable-ai → true, ai_disabled_at = null', () => {
    const { next, events } = enableAi(off, min(10));
    expect(next).toMatchObject({ aiEnabled: true, aiDisabledAt: null, aiEnabledAt: min(10) });
    expect(events).toEqual([{ type: 'ai_enabled', at: min(10) }]);
  });

  it('enable-ai: the next customer message gets an AI reply, earlier ones do not', () => {
    const back = enableAi(off, min(10)).next;
    expect(shouldGenerateAiReply(back, { status: 'active', complianceBlocked: false })).toBe(true);
    expect(aiReplyFate(back, min(10))).toBe('send');
    expect(aiReplyFate(back, min(11))).toBe('send');
    expect(aiReplyFate(back, min(4))).toBe('discard');
    expect(aiReplyFate(back, min(7))).toBe('discard');
  });

  it.each([
    ['disable-ai on a disabled conversation', () => disableAi(off, min(20)), off],
    ['enable-ai on an enabled conversation', () => enableAi(on, min(20)), on],
  ])('either + same operation again (%s) → unchanged', (_name, run, before) => {
    expect(run()).toEqual({ next: before, events: [] });
  });
});

describe('AI reply on an inbound message', () => {
  it.each([
    [true, { status: 'active', complianceBlocked: false }, true],
    [true, { status: 'inactive', complianceBlocked: false }, false],
    [true, { status: 'active', complianceBlocked: true }, false],
    [true, null, false],
    [false, { status: 'active', complianceBlocked: false }, false],
  ] as const)('ai_enabled %s, assistant %p → generate %s', (aiEnabled, assistant, expected) => {
    expect(shouldGenerateAiReply({ aiEnabled }, assistant)).toBe(expected);
  });
});

describe('why an inbound message gets no AI reply (the sandbox inbound message answer)', () => {
  it.each([
    [false, { status: 'active', complianceBlocked: false }, 'ai_disabled'],
    [true, null, 'no_assistant'],
    [true, { status: 'inactive', complianceBlocked: true }, 'assistant_inactive'],
    [true, { status: 'active', complianceBlocked: true }, 'assistant_blocked'],
    [true, { status: 'active', complianceBlocked: false }, null],
  ] as const)('ai_enabled %s, assistant %p → %s', (aiEnabled, assistant, expected) => {
    expect(aiReplySkip({ aiEnabled }, assistant)).toBe(expected);
  });
});
