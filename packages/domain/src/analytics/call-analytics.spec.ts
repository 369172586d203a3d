import { analyticsRange, callAnalytics, CallCounts } from './call-analytics';

const at = (iso: string) => new Date(iso);
const now = at('2026-03-10T15:00:00.000Z');

describe('analytics range', () => {
  it('is the last 30 days, today included, when nothing is asked', () => {
    expect(analyticsRange({}, now)).toEqual({
      ok: true,
      value: { from: at('2026-02-09T00:00:00.000Z'), until: at('2026-03-11T00:00:00.000Z') },
    });
  });

  it('takes whole UTC days of the ends given', () => {
    expect(analyticsRange({ from: at('2026-03-01T23:59:00.000Z'), to: at('2026-03-02T00:01:00.000Z') }, now)).toEqual({
      ok: true,
      value: { from: at('2026-03-01T00:00:00.000Z'), until: at('2026-03-03T00:00:00.000Z') },
    });
  });

  it('runs from a given start to today', () => {
    expect(analyticsRange({ from: at('2026-03-08T10:00:00.000Z') }, now)).toEqual({
      ok: true,
      value: { from: at('2026-03-08T00:00:00.000Z'), until: at('2026-03-11T00:00:00.000Z') },
    });
  });

  it('refuses an end before its start, and more than 366 days', () => {
    expect(analyticsRange({ from: at('2026-03-02T00:00:00Z'), to: at('2026-03-01T00:00:00Z') }, now)).toEqual({
      ok: false,
      error: { code: 'range_reversed' },
    });
    expect(analyticsRange({ from: at('2025-01-01T00:00:00Z'), to: at('2026-01-02T00:00:00Z') }, now)).toEqual({
      ok: false,
      error: { code: 'range_too_long', maxDays: 366 },
    });
    expect(analyticsRange({ from: at('2025-01-01T00:00:00Z'), to: at('2026-01-01T00:00:00Z') }, now).ok).toBe(true);
  });
});

describe('call analytics', () => {
  const range = { from: at('2026-03-01T00:00:00.000Z'), until: at('2026-03-04T00:00:00.000Z') };
  const counts: CallCounts = {
    days: [
      { date: '2026-03-01', status: 'completed', calls: 3, cost: 0.3 },
      { date: '2026-03-01', status: 'no-answer', calls: 1, cost: 0 },
      { date: '2026-03-03', status: 'failed', calls: 2, cost: 0.00006 },
    ],
    totals: {
      calls: 6,
      answered: 3,
      averageDuration: 61.234,
      p95Duration: 119.9,
      cost: 0.30006,
      completed: 3,
      goalMet: 2,
    },
    endedReasons: [{ endedReason: 'customer_hangup', calls: 3 }],
  };

  it('shows every day of the range, quiet ones as zero', () => {
    const shown = callAnalytics(range, counts);
    expect(shown.days).toEqual([
      { date: '2026-03-01', calls: 4, byStatus: { completed: 3, 'no-answer': 1 }, cost: 0.3 },
      { date: '2026-03-02', calls: 0, byStatus: {}, cost: 0 },
      { date: '2026-03-03', calls: 2, byStatus: { failed: 2 }, cost: 0.0001 },
    ]);
  });

  it('gives the answer rate over all calls and the success rate over completed ones', () => {
    expect(callAnalytics(range, counts).totals).toEqual({
      calls: 6,
      answered: 3,
      averageDuration: 61.2,
      p95Duration: 119.9,
      cost: 0.3001,
      completed: 3,
      goalMet: 2,
      answerRate: 0.5,
      successRate: 0.6667,
    });
  });

  it('has no rates without calls', () => {
    const none = callAnalytics(range, {
      days: [],
      totals: { calls: 0, answered: 0, averageDuration: null, p95Duration: null, cost: 0, completed: 0, goalMet: 0 },
      endedReasons: [],
    });
    expect(none.totals).toEqual(expect.objectContaining({ answerRate: null, successRate: null }));
  });
});
