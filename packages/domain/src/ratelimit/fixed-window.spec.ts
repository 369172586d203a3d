import { judgeHits, tightest, windowAt } from './fixed-window';

describe('fixed windows', () => {
  const now = new Date('2026-03-01T10:15:30.250Z');

  it('aligns windows to the epoch so every instance agrees', () => {
    expect(windowAt(now, 60)).toEqual({
      start: new Date('2026-03-01T10:15:00.000Z'),
      resetAt: new Date('2026-03-01T10:16:00.000Z'),
    });
    expect(windowAt(now, 1).start).toEqual(new Date('2026-03-01T10:15:30.000Z'));
  });

  it('allows up to the limit and reports remaining, reset and retry-after', () => {
    const w = windowAt(now, 60);
    expect(judgeHits(600, 600, w, now)).toEqual({
      allowed: true,
      limit: 600,
      remaining: 0,
      resetEpochSeconds: Date.parse('2026-03-01T10:16:00Z') / 1000,
      retryAfterSeconds: 30,
    });
    expect(judgeHits(601, 600, w, now).allowed).toBe(false);
  });

  it('reports the bucket with the lowest remaining, the longest window on ties', () => {
    const w = windowAt(now, 60);
    const a = { ...judgeHits(3, 5, w, now), windowSeconds: 60 };
    const b = { ...judgeHits(18, 20, w, now), windowSeconds: 3600 };
    const c = { ...judgeHits(40, 50, w, now), windowSeconds: 86400 };
    expect(tightest([a, b, c])).toBe(b);
  });
});
