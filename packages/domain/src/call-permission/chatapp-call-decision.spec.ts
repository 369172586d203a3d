import { applyRuntimeEvent, CallStatus, TerminalCallStatus } from '../calls/call-status';
import { acceptCallPermission, noCallPermission } from './call-permission';
import {
  activeSenderCalls,
  CHATAPP_CALL_CHECK_ORDER,
  ChatappCallFacts,
  decideChatappCall,
  failingChatappCallChecks,
} from './chatapp-call-decision';

const MIN = 60 * 1000;
const DAY = 24 * 60 * MIN;
const t0 = new Date('2026-03-01T10:30:00.000Z');
const at = (ms: number) => new Date(t0.getTime() + ms);
const granted = acceptCallPermission(noCallPermission(12, '+4915112345678'), false, at(-MIN)).next;

const passing: ChatappCallFacts = {
  planCallingEnabled: true,
  senderCallingEnabled: true,
  senderCallingLineReady: true,
  senderOnline: true,
  senderCountry: 'DE',
  assistant: 'available',
  permission: granted,
  balance: 0.08,
  minutePrice: 0.08,
  senderCallStatuses: ['in-progress', 'ringing', 'queued', 'completed'],
  contactAttempts: [at(-2 * MIN), at(-MIN)],
};

describe('chat-app call checks', () => {
  it('may be queued when every check passes', () => {
    expect(decideChatappCall(passing, t0)).toEqual({ ok: true, value: null });
  });

  it.each([
    ['plan without chat-app calling', { planCallingEnabled: false }, { code: 'feature_disabled' }],
    ['sender calling disabled', { senderCallingEnabled: false }, { code: 'voice_disabled' }],
    ['the chat app does not let the number call', { senderCallingLineReady: false }, { code: 'calling_not_enabled' }],
    ['sender offline', { senderOnline: false }, { code: 'sender_offline' }],
    ['sender in NG', { senderCountry: 'NG' }, { code: 'region_not_supported', country: 'NG' }],
    ['sender without assistant', { assistant: 'none' }, { code: 'no_assistant' }],
    ['assistant under compliance review', { assistant: 'compliance_blocked' }, { code: 'assistant_blocked' }],
    ['contact never asked', { permission: noCallPermission(12, '+4915112345678') }, { code: 'no_permission' }],
    [
      'grant ran out',
      { permission: acceptCallPermission(granted, false, at(-7 * DAY)).next },
      { code: 'permission_expired' },
    ],
    ['balance one unit short of a minute', { balance: 0.0799 }, { code: 'insufficient_balance' }],
    [
      'five calls occupy the sender',
      { senderCallStatuses: ['queued', 'ringing', 'ringing', 'in-progress', 'in-progress'] },
      { code: 'concurrent_limit', retryAfterSeconds: 30 },
    ],
    [
      'three attempts in 5 minutes',
      { contactAttempts: [at(-4 * MIN), at(-2 * MIN), at(-MIN)] },
      { code: 'contact_rate_limit', retryAfterSeconds: 60, retryAt: at(MIN) },
    ],
  ] as const)('%s → refused', (_, change, refusal) => {
    expect(decideChatappCall({ ...passing, ...change } as ChatappCallFacts, t0)).toEqual({ ok: false, error: refusal });
  });

  it('reports every failing check in the route order, the route answering the first', () => {
    const everything: ChatappCallFacts = {
      planCallingEnabled: false,
      senderCallingEnabled: false,
      senderCallingLineReady: false,
      senderOnline: false,
      senderCountry: 'VN',
      assistant: 'none',
      permission: noCallPermission(12, '+4915112345678'),
      balance: 0,
      minutePrice: 0.08,
      senderCallStatuses: Array<CallStatus>(5).fill('ringing'),
      contactAttempts: [t0, t0, t0],
    };
    const codes = failingChatappCallChecks(everything, t0).map((r) => r.code);
    expect(codes).toEqual(
      CHATAPP_CALL_CHECK_ORDER.filter((c) => c !== 'assistant_blocked' && c !== 'permission_expired'),
    );
    expect(decideChatappCall(everything, t0)).toEqual({ ok: false, error: { code: 'feature_disabled' } });
    for (let i = 1; i < codes.length; i++) {
      const r = decideChatappCall({ ...everything, ...fixedUpTo(codes[i - 1]) }, t0);
      expect(r.ok ? null : r.error.code).toBe(codes[i]);
    }
  });
});

/** Facts that make every check up to and including `code` pass. */
function fixedUpTo(code: string): Partial<ChatappCallFacts> {
  const fixes: [string, Partial<ChatappCallFacts>][] = [
    ['feature_disabled', { planCallingEnabled: true }],
    ['voice_disabled', { senderCallingEnabled: true }],
    ['calling_not_enabled', { senderCallingLineReady: true }],
    ['sender_offline', { senderOnline: true }],
    ['region_not_supported', { senderCountry: 'DE' }],
    ['no_assistant', { assistant: 'available' }],
    ['no_permission', { permission: granted }],
    ['insufficient_balance', { balance: 1 }],
    ['concurrent_limit', { senderCallStatuses: [] }],
  ];
  const upTo = fixes.findIndex(([c]) => c === code);
  return Object.assign({}, ...fixes.slice(0, upTo + 1).map(([, fix]) => fix));
}

describe('per-contact attempts: 3 per 5 minutes', () => {
  const attempts = [t0, at(MIN), at(2 * MIN)];
  it.each([
    [
      'one ms before the oldest attempt leaves',
      5 * MIN - 1,
      { ok: false, error: { code: 'contact_rate_limit', retryAfterSeconds: 1, retryAt: at(5 * MIN) } },
    ],
    ['exactly when it leaves', 5 * MIN, { ok: true, value: null }],
    ['one ms after', 5 * MIN + 1, { ok: true, value: null }],
  ] as const)('a fourth attempt %s', (_, offset, expected) => {
    expect(decideChatappCall({ ...passing, contactAttempts: attempts }, at(offset))).toEqual(expected);
  });

  it('retry_after is whole seconds until the oldest attempt leaves the window', () => {
    const r = decideChatappCall({ ...passing, contactAttempts: attempts }, at(2 * MIN + 500));
    expect(r).toEqual({
      ok: false,
      error: { code: 'contact_rate_limit', retryAfterSeconds: 180, retryAt: at(5 * MIN) },
    });
  });
});

describe('per-sender concurrency: 5 calls queued, ringing or in progress', () => {
  it.each([
    [['queued', 'ringing', 'in-progress', 'in-progress'], 4],
    [['queued', 'ringing', 'in-progress', 'completed', 'failed', 'busy', 'no-answer', 'canceled'], 3],
  ] as [CallStatus[], number][])('%j occupy %i lines', (statuses, active) => {
    expect(activeSenderCalls(statuses)).toBe(active);
  });

  it.each([
    ['ringing', 'no-answer'],
    ['queued', 'failed'],
    ['in-progress', 'completed'],
    ['in-progress', 'canceled'],
  ] as [CallStatus, TerminalCallStatus][])('a %s call ending %s releases its line', (from, endedAs) => {
    const others: CallStatus[] = ['queued', 'ringing', 'in-progress', 'in-progress'];
    const full = { ...passing, senderCallStatuses: [...others, from] };
    expect(decideChatappCall(full, t0)).toEqual({
      ok: false,
      error: { code: 'concurrent_limit', retryAfterSeconds: 30 },
    });
    const ended = applyRuntimeEvent(from, 'ended', endedAs);
    if (!ended.ok || ended.value.kind !== 'moved') throw new Error('the call did not end');
    expect(decideChatappCall({ ...full, senderCallStatuses: [...others, ended.value.to] }, t0)).toEqual({
      ok: true,
      value: null,
    });
  });
});
