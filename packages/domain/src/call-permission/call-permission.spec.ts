import { applyRuntimeEvent } from '../calls/call-status';
import {
  acceptCallPermission,
  CallPermission,
  callPermissionStatusAt,
  canCallAt,
  declineCallPermission,
  noCallPermission,
  revokeCallPermission,
  StoredCallPermissionStatus,
  TEMPORARY_GRANT_MS,
} from './call-permission';
import { askCountersOnCallStatus, askUsage, recordPermissionRequest } from './permission-asks';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const t0 = new Date('2026-03-01T10:20:00.000Z');
const at = (ms: number) => new Date(t0.getTime() + ms);

/** A permission in `status`, last asked 8 days before t0 (no ask counts any more). */
function inState(status: StoredCallPermissionStatus | 'expired', extra: Partial<CallPermission> = {}): CallPermission {
  const base = {
    ...noCallPermission(12, '+4915112345678'),
    asks: status === 'none' ? [] : [at(-8 * DAY)],
    requestedAt: status === 'none' ? null : at(-8 * DAY),
  };
  switch (status) {
    case 'none':
    case 'pending':
      return { ...base, status, ...extra };
    case 'granted':
      return { ...base, status, respondedAt: at(-HOUR), expiresAt: at(-HOUR + TEMPORARY_GRANT_MS), ...extra };
    case 'expired':
      return { ...base, status: 'granted', respondedAt: at(-7 * DAY - HOUR), expiresAt: at(-HOUR), ...extra };
    case 'rejected':
    case 'revoked':
      return { ...base, status, respondedAt: at(-7 * DAY), ...extra };
  }
}

describe('call permission lifecycle', () => {
  it('a contact never asked reads as none and cannot be called', () => {
    const p = noCallPermission(12, '+4915112345678');
    expect(callPermissionStatusAt(p, t0)).toBe('none');
    expect(canCallAt(p, t0)).toBe(false);
  });

  it.each(['none', 'pending', 'rejected', 'expired', 'revoked'] as const)(
    '%s + request (checks pass) → pending, requested now, the ask counts',
    (from) => {
      const p = inState(from);
      expect(callPermissionStatusAt(p, t0)).toBe(from);
      const r = recordPermissionRequest(p, t0);
      if (!r.ok) throw new Error(r.error.reason);
      expect(r.value.events).toEqual([]);
      expect(r.value.next).toMatchObject({ status: 'pending', requestedAt: t0, expiresAt: null, isPermanent: false });
      expect(askUsage(r.value.next, t0).daily.used).toBe(1);
      expect(callPermissionStatusAt(r.value.next, t0)).toBe('pending');
    },
  );

  it('granted + request → unchanged, REQUEST_LIMIT already_granted', () => {
    expect(recordPermissionRequest(inState('granted'), t0)).toEqual({
      ok: false,
      error: { code: 'request_limit', reason: 'already_granted', retryAt: at(-HOUR + TEMPORARY_GRANT_MS) },
    });
  });

  it.each(['none', 'pending', 'granted', 'rejected', 'expired', 'revoked'] as const)(
    '%s + customer accepts (temporary) → granted for 7 days, event raised',
    (from) => {
      const r = acceptCallPermission(inState(from), false, t0);
      expect(r.next).toMatchObject({ status: 'granted', isPermanent: false, respondedAt: t0, expiresAt: at(7 * DAY) });
      expect(r.events).toEqual([
        {
          type: 'call_permission_granted',
          senderId: 12,
          customerPhone: '+4915112345678',
          isPermanent: false,
          expiresAt: at(7 * DAY),
          respondedAt: t0,
        },
      ]);
      expect(canCallAt(r.next, t0)).toBe(true);
    },
  );

  it.each(['none', 'pending', 'rejected', 'expired', 'revoked'] as const)(
    '%s + customer accepts permanently → granted without expiry',
    (from) => {
      const r = acceptCallPermission(inState(from), true, t0);
      expect(r.next).toMatchObject({ status: 'granted', isPermanent: true, expiresAt: null, respondedAt: t0 });
      expect(r.events).toEqual([
        expect.objectContaining({ type: 'call_permission_granted', isPermanent: true, expiresAt: null }),
      ]);
    },
  );

  it('pending + customer declines → rejected, no event', () => {
    const r = declineCallPermission(inState('pending'), t0);
    expect(r).toEqual({
      ok: true,
      value: { next: expect.objectContaining({ status: 'rejected', respondedAt: t0, expiresAt: null }), events: [] },
    });
  });

  it.each([
    ['declines', declineCallPermission],
    ['revokes', revokeCallPermission],
  ] as const)('granted + customer %s → revoked, no event, no longer callable', (_, answer) => {
    const r = answer(inState('granted'), t0);
    if (!r.ok) throw new Error(r.error);
    expect(r.value.events).toEqual([]);
    expect(r.value.next).toMatchObject({ status: 'revoked', isPermanent: false, expiresAt: null, respondedAt: t0 });
    expect(canCallAt(r.value.next, t0)).toBe(false);
  });

  it.each(['none', 'rejected', 'expired', 'revoked'] as const)(
    '%s + customer declines → refused, nothing changes',
    (from) => {
      expect(declineCallPermission(inState(from), t0)).toEqual({ ok: false, error: 'nothing_to_decline' });
    },
  );

  it.each(['none', 'pending', 'rejected', 'expired', 'revoked'] as const)(
    '%s + revoke → refused: only a granted permission can be revoked',
    (from) => {
      expect(revokeCallPermission(inState(from), t0)).toEqual({ ok: false, error: 'not_granted' });
    },
  );

  describe('granted + expires_at passes (temporary grant) → expired, computed when read', () => {
    const granted = acceptCallPermission(inState('pending'), false, t0).next;
    it.each([
      [7 * DAY - 1, 'granted', true],
      [7 * DAY, 'expired', false],
      [7 * DAY + 1, 'expired', false],
    ] as const)('at grant + %i ms: %s', (offset, status, callable) => {
      expect(callPermissionStatusAt(granted, at(offset))).toBe(status);
      expect(canCallAt(granted, at(offset))).toBe(callable);
      expect(granted.status).toBe('granted');
    });

    it('a permanent grant never expires', () => {
      const permanent = acceptCallPermission(inState('pending'), true, t0).next;
      expect(callPermissionStatusAt(permanent, at(365 * DAY))).toBe('granted');
    });
  });

  it.each(['none', 'pending', 'granted', 'rejected', 'expired', 'revoked'] as const)(
    '%s + a chat-app call reaches in-progress → unchanged, ask counters reset',
    (from) => {
      const asked = { ...inState(from), asks: [at(-HOUR)] };
      expect(askUsage(asked, t0).daily.used).toBe(1);
      const answered = applyRuntimeEvent('ringing', 'answered');
      if (!answered.ok || answered.value.kind !== 'moved') throw new Error('the call did not move');
      const after = askCountersOnCallStatus(asked, answered.value.to, t0);
      expect(after.status).toBe(asked.status);
      expect(callPermissionStatusAt(after, t0)).toBe(from);
      expect(askUsage(after, t0)).toMatchObject({ daily: { used: 0 }, weekly: { used: 0 } });
    },
  );
});
