import { CHATAPP_CALL_QUOTAS, PERMISSION_REQUEST_QUOTAS, quotaStanding, QuotaUsage, UserQuota } from './user-quotas';

const now = new Date('2026-03-01T10:15:30.000Z');
const usage = (quotas: readonly UserQuota[], used: readonly number[]): QuotaUsage[] =>
  quotas.map((quota, i) => ({ quota, used: used[i] }));

describe('user quotas of the voice routes', () => {
  it('permission requests: 5/min, 20/h, 50/day; chat-app calls: 5/min, 15/h, 30/day', () => {
    expect(PERMISSION_REQUEST_QUOTAS.map((q) => [q.limit, q.windowSeconds])).toEqual([
      [5, 60],
      [20, 3600],
      [50, 86400],
    ]);
    expect(CHATAPP_CALL_QUOTAS.map((q) => [q.limit, q.windowSeconds])).toEqual([
      [5, 60],
      [15, 3600],
      [30, 86400],
    ]);
  });

  it.each([
    ['room in every window', [4, 14, 29], { exhausted: false, nextAllowedAt: null }],
    ['the minute used up', [5, 14, 29], { exhausted: true, nextAllowedAt: new Date('2026-03-01T10:16:00.000Z') }],
    ['the hour used up', [1, 15, 29], { exhausted: true, nextAllowedAt: new Date('2026-03-01T11:00:00.000Z') }],
    ['the day used up', [0, 0, 30], { exhausted: true, nextAllowedAt: new Date('2026-03-02T00:00:00.000Z') }],
    [
      'minute and hour used up: waits for both',
      [5, 15, 20],
      { exhausted: true, nextAllowedAt: new Date('2026-03-01T11:00:00.000Z') },
    ],
  ] as const)('chat-app calls, %s', (_, used, standing) => {
    expect(quotaStanding(usage(CHATAPP_CALL_QUOTAS, used), now)).toEqual(standing);
  });

  it('permission requests allow 20 an hour where calls allow 15', () => {
    expect(quotaStanding(usage(PERMISSION_REQUEST_QUOTAS, [0, 19, 0]), now).exhausted).toBe(false);
    expect(quotaStanding(usage(PERMISSION_REQUEST_QUOTAS, [0, 20, 0]), now).exhausted).toBe(true);
    expect(quotaStanding(usage(PERMISSION_REQUEST_QUOTAS, [0, 0, 50]), now).exhausted).toBe(true);
  });
});
