import { CallStatus } from '../calls/call-status';
import { acceptCallPermission, CallPermission, noCallPermission } from './call-permission';
import {
  askCountersOnCallStatus,
  askUsage,
  checkAskLimits,
  recordPermissionRequest,
  resetAskCounters,
  withdrawPermissionRequest,
} from './permission-asks';

const MIN = 60 * 1000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const t0 = new Date('2026-03-01T10:20:00.000Z');
const at = (ms: number) => new Date(t0.getTime() + ms);

function requested(p: CallPermission, when: Date): CallPermission {
  const r = recordPermissionRequest(p, when);
  if (!r.ok) throw new Error(`request at ${when.toISOString()} refused: ${r.error.reason}`);
  return r.value.next;
}

/** Asked once at t0, then rejected by the customer. */
const askedOnce = { ...requested(noCallPermission(12, '+4915112345678'), t0), status: 'rejected' as const };
/** Asked at t0 and again at t0 + 24 h (both rejected): the weekly cap is reached. */
const askedTwice = { ...requested(askedOnce, at(DAY)), status: 'rejected' as const };

describe('permission asks: 1 per 24 hours', () => {
  it.each([
    [
      'one ms before 24 h',
      DAY - 1,
      { ok: false, error: { code: 'request_limit', reason: 'daily_limit', retryAt: at(DAY) } },
    ],
    ['exactly 24 h', DAY, { ok: true }],
    ['one ms after 24 h', DAY + 1, { ok: true }],
  ] as const)('a second ask %s after the first', (_, offset, expected) => {
    expect(checkAskLimits(askedOnce, at(offset))).toMatchObject(expected);
  });

  it('counts the ask in both windows and says when it leaves each', () => {
    expect(askUsage(askedOnce, at(HOUR))).toEqual({
      daily: { periodMs: DAY, max: 1, used: 1, oldestLeavesAt: at(DAY), freesAt: at(DAY) },
      weekly: { periodMs: 7 * DAY, max: 2, used: 1, oldestLeavesAt: at(7 * DAY), freesAt: null },
    });
  });

  it('a pending request is itself under the daily limit', () => {
    const pending = requested(noCallPermission(12, '+4915112345678'), t0);
    expect(recordPermissionRequest(pending, at(HOUR))).toEqual({
      ok: false,
      error: { code: 'request_limit', reason: 'daily_limit', retryAt: at(DAY) },
    });
  });
});

describe('permission asks: 2 per 7 days', () => {
  it.each([
    [
      'one ms before 7 days after the first ask',
      7 * DAY - 1,
      { ok: false, error: { code: 'request_limit', reason: 'weekly_limit', retryAt: at(7 * DAY) } },
    ],
    ['exactly 7 days after the first ask', 7 * DAY, { ok: true }],
    ['one ms after 7 days', 7 * DAY + 1, { ok: true }],
  ] as const)('a third ask %s', (_, offset, expected) => {
    expect(checkAskLimits(askedTwice, at(offset))).toMatchObject(expected);
  });

  it('while both limits block, the daily reason is reported and retry_at waits for both', () => {
    // Asks at day 0 and day 6.5: at day 6.6 the daily ask frees at 7.5 days, the weekly at 7 days.
    const late = { ...requested(askedOnce, at(6.5 * DAY)), status: 'rejected' as const };
    expect(checkAskLimits(late, at(6.6 * DAY))).toEqual({
      ok: false,
      error: { code: 'request_limit', reason: 'daily_limit', retryAt: at(7.5 * DAY) },
    });
    // Asks at day 0 and day 1: at day 1.5 the daily ask frees at day 2 but the week only at day 7.
    expect(checkAskLimits(askedTwice, at(1.5 * DAY))).toEqual({
      ok: false,
      error: { code: 'request_limit', reason: 'daily_limit', retryAt: at(7 * DAY) },
    });
  });

  it('drops asks that can no longer count when a new one is recorded', () => {
    const third = requested(askedTwice, at(8 * DAY));
    expect(third.asks).toEqual([at(8 * DAY)]);
  });
});

describe('already granted', () => {
  it('a temporary grant blocks until it expires', () => {
    const granted = acceptCallPermission(askedOnce, false, at(10 * MIN)).next;
    expect(checkAskLimits(granted, at(HOUR))).toEqual({
      ok: false,
      error: { code: 'request_limit', reason: 'already_granted', retryAt: at(10 * MIN + 7 * DAY) },
    });
    expect(checkAskLimits(granted, at(10 * MIN + 7 * DAY)).ok).toBe(true);
  });

  it('retry_at also waits for the counters when they free later than the grant expires', () => {
    const granted = acceptCallPermission(askedTwice, false, at(DAY + 10 * MIN)).next;
    // The grant ends at day 8 + 10 min, after the week of asks (day 7): the grant decides.
    expect(checkAskLimits(granted, at(2 * DAY))).toEqual({
      ok: false,
      error: { code: 'request_limit', reason: 'already_granted', retryAt: at(DAY + 10 * MIN + 7 * DAY) },
    });
    // Granted a day before the first ask, it ends at day 6, before the week of asks frees (day 7).
    const earlier = {
      ...acceptCallPermission(noCallPermission(12, '+4915112345678'), false, at(-DAY)).next,
      asks: askedTwice.asks,
    };
    expect(checkAskLimits(earlier, at(DAY + HOUR))).toEqual({
      ok: false,
      error: { code: 'request_limit', reason: 'already_granted', retryAt: at(7 * DAY) },
    });
  });

  it('a permanent grant never frees: retry_at is null', () => {
    const granted = acceptCallPermission(askedOnce, true, at(10 * MIN)).next;
    expect(checkAskLimits(granted, at(30 * DAY))).toEqual({
      ok: false,
      error: { code: 'request_limit', reason: 'already_granted', retryAt: null },
    });
  });
});

describe('reset after a connected call', () => {
  it('a connected call right after an ask allows the next ask at once', () => {
    const reset = resetAskCounters(askedOnce, at(MIN));
    expect(checkAskLimits(reset, at(2 * MIN)).ok).toBe(true);
    expect(askUsage(reset, at(2 * MIN)).daily.used).toBe(0);
  });

  it('lifts the weekly cap too', () => {
    const reset = resetAskCounters(askedTwice, at(DAY + MIN));
    expect(checkAskLimits(askedTwice, at(2 * DAY)).ok).toBe(false);
    expect(checkAskLimits(reset, at(2 * DAY)).ok).toBe(true);
    const again = { ...requested(reset, at(2 * DAY)), status: 'rejected' as const };
    expect(askUsage(again, at(2 * DAY))).toMatchObject({ daily: { used: 1 }, weekly: { used: 1 } });
  });

  it('asks made after the connection keep counting, even when the connection is reported late', () => {
    const afterCall = { ...requested(askedOnce, at(DAY + HOUR)), status: 'rejected' as const };
    const lateReport = resetAskCounters(afterCall, at(DAY));
    expect(askUsage(lateReport, at(DAY + 2 * HOUR))).toMatchObject({ daily: { used: 1 }, weekly: { used: 1 } });
    expect(resetAskCounters(lateReport, at(HOUR)).asksCountedAfter).toEqual(at(DAY));
  });

  it('an ask at the very instant of the connection is reset with it', () => {
    expect(askUsage(resetAskCounters(askedOnce, t0), at(MIN)).daily.used).toBe(0);
  });

  it.each(['queued', 'ringing', 'completed', 'no-answer', 'busy', 'failed', 'canceled'] as CallStatus[])(
    'a chat-app call moving to %s resets nothing',
    (status) => {
      expect(askCountersOnCallStatus(askedOnce, status, at(MIN))).toBe(askedOnce);
    },
  );

  it('a chat-app call reaching in-progress resets the asks', () => {
    expect(
      askUsage(askCountersOnCallStatus(askedTwice, 'in-progress', at(DAY + MIN)), at(DAY + 2 * MIN)).weekly.used,
    ).toBe(0);
  });
});

describe('withdrawPermissionRequest', () => {
  it('takes back an ask whose template did not go out: the permission is what it was and the ask stops counting', () => {
    const before = requested(noCallPermission(1, '+14155550100'), t0);
    const declined: CallPermission = { ...before, status: 'rejected', respondedAt: at(HOUR) };
    const asked = requested(declined, at(2 * DAY));
    expect(withdrawPermissionRequest(asked, declined, at(2 * DAY))).toEqual(declined);
    expect(checkAskLimits(withdrawPermissionRequest(asked, declined, at(2 * DAY)), at(2 * DAY)).ok).toBe(true);
  });

  it('keeps what the customer answered meanwhile, still without the ask', () => {
    const fresh = noCallPermission(1, '+14155550100');
    const asked = requested(fresh, t0);
    const granted = acceptCallPermission(asked, true, at(MIN)).next;
    expect(withdrawPermissionRequest(granted, fresh, t0)).toEqual({ ...granted, asks: [] });
  });
});
