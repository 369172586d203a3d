import { applyRuntimeEvent, CallStatus, TerminalCallStatus } from '../calls/call-status';
import { acceptCallPermission, noCallPermission } from './call-permission';
import { activeSenderCalls, CHATAPP_CALL_CHECK_ORDER, ChatappCallFacts, decideChatappCall, failingChatappCallChecks } from './chatapp-call-decision';

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
    ['plan without chat-app calling', { planCallingEnabled: false }, { code: 'FEATURE_DISABLED' }],
    ['sender calling disabled', { senderCallingEnabled: false }, { code: 'VOICE_DISABLED' }],
    ['the chat app does not let the number call', { senderCallingLineReady: false }, { code: 'CALLING_NOT_ENABLED' }],
    ['sender offline', { senderOnline: false }, { code: 'SENDER_OFFLINE' }],
    ['sender in NG', { senderCountry: 'NG' }, { code: 'REGION_NOT_SUPPORTED', country: 'NG' }],
    ['sender without assistant', { assistant: 'none' }, { code: 'NO_ASSISTANT' }],
    ['assistant under compliance review', { assistant: 'compliance_blocked' }, { code: 'ASSISTANT_BLOCKED' }],
    ['contact never asked', { permission: noCallPermission(12, '+4915112345678') }, { code: 'NO_PERMISSION', reason: 'no_permission' }],
    ['grant ran out', { permission: acceptCallPermission(granted, false, at(-7 * DAY)).next }, { code: 'NO_PERMISSION', reason: 'permission_expired' }],
    ['balance one unit short of a minute', { balance: 0.0799 }, { code: 'INSUFFICIENT_BALANCE' }],
    ['five calls occupy the sender', { senderCallStatuses: ['queued', 'ringing', 'ringing', 'in-progress', 'in-progress'] }, { code: 'CONCURRENT_LIMIT', retryAfterSeconds: 30 }],
    ['three attempts in 5 minutes', { contactAttempts: [at(-4 * MIN), at(-2 * MIN), at(-MIN)] }, { code: 'CONTACT_RATE_LIMIT', retryAfterSeconds: 60, retryAt: at(MIN) }],
  ] as const)('%s → refused', (_, change, refusal) => {
    expect(decideChatappCall({ ...passing, ...change } as ChatappCallFacts, t0)).toEqual({ ok: false, error: refusal });
  });

  it('reports every failing check in the route order, the route answering the first', () => {
    const everything: ChatappCallFacts = {
      planCallingEnabled: false, senderCallingEnabled: false, senderCallingLineReady: false, senderOnline: false, senderCountry: 'VN', assistant: 'none',
      permission: noCallPermission(12, '+4915112345678'), balance: 0, minutePrice: 0.08,
      senderCallStatuses: Array<CallStatus>(5).fill('ringing'), contactAttempts: [t0, t0, t0],
    };
    const codes = failingChatappCallChecks(everything, t0).map((r) => r.code);
    expect(codes).toEqual(CHATAPP_CALL_CHECK_ORDER.filter((c) => c !== 'ASSISTANT_BLOCKED'));
    expect(decideChatappCall(everything, t0)).toEqual({ ok: false, error: { code: 'FEATURE_DISABLED' } });
    for (let i = 1; i < codes.length; i++) {
      const r = decideChatappCall({ ...everything, ...fixedUpTo(codes[i - 1]) }, t0);
      expect(r.ok ? null : r.error.code).toBe(codes[i]);
    }
  });
});

/** Facts that make every check up to and including `code` pass. */
function fixedUpTo(code: string): Partial<ChatappCallFacts> {
  const fixes: [string, Partial<ChatappCallFacts>][] = [
    ['FEATURE_DISABLED', { planCallingEnabled: true }],
    ['VOICE_DISABLED', { senderCallingEnabled: true }],
    ['CALLING_NOT_ENABLED', { senderCallingLineReady: true }],
    ['SENDER_OFFLINE', { senderOnline: true }],
    ['REGION_NOT_SUPPORTED', { senderCountry: 'DE' }],
    ['NO_ASSISTANT', { assistant: 'available' }],
    ['NO_PERMISSION', { permission: granted }],
    ['INSUFFICIENT_BALANCE', { balance: 1 }],
    ['CONCURRENT_LIMIT', { senderCallStatuses: [] }],
  ];
  const upTo = fixes.findIndex(([c]) => c === code);
  return Object.assign({}, ...fixes.slice(0, upTo + 1).map(([, fix]) => fix));
}

describe('per-contact attempts: 3 per 5 minutes', () => {
  const attempts = [t0, at(MIN), at(2 * MIN)];
  it.each([
    ['one ms before the oldest attempt leaves', 5 * MIN - 1, { ok: false, error: { code: 'CONTACT_RATE_LIMIT', retryAfterSeconds: 1, retryAt: at(5 * MIN) } }],
    ['exactly when it leaves', 5 * MIN, { ok: true, value: null }],
    ['one ms after', 5 * MIN + 1, { ok: true, value: null }],
  ] as const)('a fourth attempt %s', (_, offset, expected) => {
    expect(decideChatappCall({ ...passing, contactAttempts: attempts }, at(offset))).toEqual(expected);
  });

  it('retry_after is whole seconds until the oldest attempt leaves the window', () => {
    const r = decideChatappCall({ ...passing, contactAttempts: attempts }, at(2 * MIN + 500));
    expect(r).toEqual({ ok: false, error: { code: 'CONTACT_RATE_LIMIT', retryAfterSeconds: 180, retryAt: at(5 * MIN) } });
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
    expect(decideChatappCall(full, t0)).toEqual({ ok: false, error: { code: 'CONCURRENT_LIMIT', retryAfterSeconds: 30 } });
    const ended = applyRuntimeEvent(from, 'ended', endedAs);
    if (!ended.ok || ended.value.kind !== 'moved') throw new Error('the call did not end');
    expect(decideChatappCall({ ...full, senderCallStatuses: [...others, ended.value.to] }, t0)).toEqual({ ok: true, value: null });
  });
});
