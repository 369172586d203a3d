import { acceptCallPermission, noCallPermission } from './call-permission';
import { recordPermissionRequest } from './permission-asks';
import {
  customerSessionOpen,
  decidePermissionRequest,
  PermissionRequestFacts,
  permissionRequestReason,
} from './permission-request';
import { CALL_REFUSED_SENDER_COUNTRIES, senderRegionRefusesCalls } from './sender-region';

const HOUR = 60 * 60 * 1000;
const t0 = new Date('2026-03-01T10:20:00.000Z');
const at = (ms: number) => new Date(t0.getTime() + ms);
const fresh = noCallPermission(12, '+4915112345678');

const passing: PermissionRequestFacts = {
  planCallingEnabled: true,
  senderCallingEnabled: true,
  senderCountry: 'DE',
  hasRequestTemplate: true,
  lastCustomerMessageAt: at(-HOUR),
  permission: fresh,
};

const justAsked = (() => {
  const r = recordPermissionRequest(fresh, at(-HOUR / 2));
  if (!r.ok) throw new Error('setup');
  return r.value.next;
})();

describe('permission request checks', () => {
  it('passes when every check passes, reporting the ask usage', () => {
    const r = decidePermissionRequest(passing, t0);
    expect(r).toEqual({ ok: true, value: expect.objectContaining({ daily: expect.objectContaining({ used: 0 }) }) });
  });

  it.each([
    ['sender calling disabled', { senderCallingEnabled: false }, { code: 'voice_disabled' }, 'voice_disabled'],
    ['plan calling disabled', { planCallingEnabled: false }, { code: 'voice_disabled' }, 'voice_disabled'],
    [
      'sender in the US',
      { senderCountry: 'US' },
      { code: 'region_not_supported', country: 'US' },
      'region_not_supported',
    ],
    ['no approved request template', { hasRequestTemplate: false }, { code: 'template_missing' }, 'template_missing'],
    ['customer never wrote', { lastCustomerMessageAt: null }, { code: 'session_closed' }, 'session_closed'],
    [
      'asked half an hour ago',
      { permission: justAsked },
      { code: 'request_limit', reason: 'daily_limit', retryAt: at(24 * HOUR - HOUR / 2) },
      'daily_limit',
    ],
    [
      'already granted',
      { permission: acceptCallPermission(fresh, true, at(-HOUR)).next },
      { code: 'request_limit', reason: 'already_granted', retryAt: null },
      'already_granted',
    ],
  ] as const)('%s → refused', (_, change, refusal, reason) => {
    const r = decidePermissionRequest({ ...passing, ...change }, t0);
    expect(r).toEqual({ ok: false, error: refusal });
    if (!r.ok) expect(permissionRequestReason(r.error)).toBe(reason);
  });

  it.each([
    [
      'VOICE_DISABLED before REGION_NOT_SUPPORTED',
      { senderCallingEnabled: false, senderCountry: 'US' },
      'voice_disabled',
    ],
    [
      'REGION_NOT_SUPPORTED before TEMPLATE_NOT_FOUND',
      { senderCountry: 'TR', hasRequestTemplate: false },
      'region_not_supported',
    ],
    [
      'TEMPLATE_NOT_FOUND before SESSION_CLOSED',
      { hasRequestTemplate: false, lastCustomerMessageAt: null },
      'template_missing',
    ],
    ['SESSION_CLOSED before REQUEST_LIMIT', { lastCustomerMessageAt: null, permission: justAsked }, 'session_closed'],
  ] as const)('check order: %s', (_, change, code) => {
    const r = decidePermissionRequest({ ...passing, ...change }, t0);
    expect(r.ok ? null : r.error.code).toBe(code);
  });
});

describe('sender region', () => {
  it.each([...CALL_REFUSED_SENDER_COUNTRIES])('senders in %s are refused', (country) => {
    expect(senderRegionRefusesCalls(country)).toBe(true);
    expect(decidePermissionRequest({ ...passing, senderCountry: country }, t0)).toEqual({
      ok: false,
      error: { code: 'region_not_supported', country },
    });
  });

  it.each(['DE', 'GB', 'BR', 'IN', 'MX'])('senders in %s may ask', (country) => {
    expect(senderRegionRefusesCalls(country)).toBe(false);
  });

  it('reads the country in any case and reports it upper-cased', () => {
    expect(decidePermissionRequest({ ...passing, senderCountry: 'ca' }, t0)).toEqual({
      ok: false,
      error: { code: 'region_not_supported', country: 'CA' },
    });
  });

  it('a sender of unknown country is not refused', () => {
    expect(senderRegionRefusesCalls(null)).toBe(false);
  });
});

describe('customer session for permission requests', () => {
  const wrote = t0;
  it.each([
    [24 * HOUR - 1, true],
    [24 * HOUR, false],
    [24 * HOUR + 1, false],
  ])('%i ms after the customer last wrote: open %s', (offset, open) => {
    expect(customerSessionOpen(wrote, at(offset))).toBe(open);
    expect(decidePermissionRequest({ ...passing, lastCustomerMessageAt: wrote }, at(offset)).ok).toBe(open);
  });
});
