import {
  AttemptOutcome,
  checkReplay,
  judgeAttempt,
  MAX_DELIVERY_ATTEMPTS,
  responseExcerpt,
  retryAfterSeconds,
  settleAttempt,
} from './delivery';

const answer = (
  statusCode: number | null,
  error: AttemptOutcome['error'] = null,
  retryAfter: number | null = null,
): AttemptOutcome => ({
  statusCode,
  error: error ?? (statusCode !== null && statusCode >= 200 && statusCode < 300 ? null : 'http_error'),
  retryAfterSeconds: retryAfter,
});
const MID = 0.5; // jitter 0.5 → no deviation
const S = 1_000;

describe('judgeAttempt', () => {
  it.each([200, 201, 202, 204, 299])('%i is a success', (status) => {
    expect(judgeAttempt(answer(status), 1, 8, MID)).toEqual({ kind: 'succeeded' });
  });

  it('a 2xx whose body was too large still counts as received', () => {
    expect(judgeAttempt(answer(200, 'response_too_large'), 3, 8, MID)).toEqual({ kind: 'succeeded' });
  });

  it.each([
    ['410 Gone', answer(410)],
    ['a blocked target', answer(null, 'blocked_target')],
  ])('%s stops at once, on the first attempt', (_name, outcome) => {
    expect(judgeAttempt(outcome, 1, 8, MID)).toEqual({ kind: 'failed' });
  });

  it.each([
    ['3xx (redirects are never followed)', answer(301)],
    ['400', answer(400)],
    ['404', answer(404)],
    ['429', answer(429)],
    ['500', answer(500)],
    ['503', answer(503)],
    ['a timeout', answer(null, 'timeout')],
    ['a refused connection', answer(null, 'connection_failed')],
    ['an oversized error body', answer(500, 'response_too_large')],
  ])('%s is retried', (_name, outcome) => {
    expect(judgeAttempt(outcome, 1, 8, MID).kind).toBe('retry');
  });

  it.each([
    [1, 5],
    [2, 30],
    [3, 120],
    [4, 600],
    [5, 1_800],
    [6, 7_200],
    [7, 21_600],
  ])('after failed attempt %i the next waits %i s', (attempt, seconds) => {
    expect(judgeAttempt(answer(500), attempt, 8, MID)).toEqual({ kind: 'retry', delayMs: seconds * S });
  });

  it('gives up after the 8th attempt', () => {
    expect(MAX_DELIVERY_ATTEMPTS).toBe(8);
    expect(judgeAttempt(answer(500), 8, 8, MID)).toEqual({ kind: 'failed' });
  });

  it('gives up after the only attempt of a single-attempt delivery', () => {
    expect(judgeAttempt(answer(500), 1, 1, MID)).toEqual({ kind: 'failed' });
  });

  it.each([
    [0, 4_500, 27_000],
    [0.25, 4_750, 28_500],
    [0.999999, 5_500, 33_000],
  ])('jitter %p spreads the wait within ±10 %%', (jitter, first, second) => {
    expect(judgeAttempt(answer(500), 1, 8, jitter)).toEqual({ kind: 'retry', delayMs: first });
    expect(judgeAttempt(answer(500), 2, 8, jitter)).toEqual({ kind: 'retry', delayMs: second });
  });

  it('never leaves the ±10 % band, whatever the jitter', () => {
    for (let i = 0; i < 1_000; i++) {
      const verdict = judgeAttempt(answer(500), 7, 8, i / 1_000);
      if (verdict.kind !== 'retry') throw new Error('expected a retry');
      expect(verdict.delayMs).toBeGreaterThanOrEqual(21_600 * 0.9 * S);
      expect(verdict.delayMs).toBeLessThanOrEqual(21_600 * 1.1 * S);
    }
  });

  it.each([
    ['429 with a longer Retry-After waits that long', 429, 90, 90 * S],
    ['503 with a longer Retry-After waits that long', 503, 600, 600 * S],
    ['a shorter Retry-After never shortens the schedule', 429, 1, 5 * S],
    ['Retry-After is capped at 6 h', 503, 999_999, 21_600 * S],
    ['Retry-After on a 500 is ignored', 500, 90, 5 * S],
    ['Retry-After on a 200-less timeout is ignored', null, 90, 5 * S],
  ])('%s', (_name, status, retryAfter, delayMs) => {
    const outcome: AttemptOutcome = {
      statusCode: status,
      error: status === null ? 'timeout' : 'http_error',
      retryAfterSeconds: retryAfter,
    };
    expect(judgeAttempt(outcome, 1, 8, MID)).toEqual({ kind: 'retry', delayMs });
  });

  it('Retry-After does not add attempts beyond the last', () => {
    expect(judgeAttempt(answer(429, null, 60), 8, 8, MID)).toEqual({ kind: 'failed' });
  });
});

describe('retryAfterSeconds', () => {
  const now = new Date('2026-03-01T10:00:00.000Z');
  it.each([
    [undefined, null],
    ['', null],
    ['  ', null],
    ['120', 120],
    [' 7 ', 7],
    ['0', 0],
    ['-5', null],
    ['1.5', null],
    ['soon', null],
    ['Sun 01 garbage', null],
    ['Sun Mar  1 10:01:00 2026', null],
    ['Sunday, 01-Mar-26 10:02:00 GMT', null],
    ['Sun, 01 Mar 2026 10:02:00 GMT', 120],
    ['Sun, 01 Mar 2026 10:00:00 GMT', 0],
    ['Sun, 01 Mar 2026 09:00:00 GMT', 0],
    ['Sun, 01 Mar 2026 10:00:00 GMT ', 0],
  ])('%p → %p', (header, seconds) => {
    expect(retryAfterSeconds(header, now)).toBe(seconds);
  });

  it('rounds a date a fraction of a second away up to the next second', () => {
    expect(retryAfterSeconds('Sun, 01 Mar 2026 10:00:01 GMT', new Date('2026-03-01T10:00:00.400Z'))).toBe(1);
  });
});

describe('settleAttempt', () => {
  const now = new Date('2026-03-01T10:00:00.000Z');
  it.each([
    ['pending', { kind: 'succeeded' }, 'succeeded', null],
    ['pending', { kind: 'failed' }, 'failed', null],
    ['pending', { kind: 'retry', delayMs: 5_000 }, 'pending', '2026-03-01T10:00:05.000Z'],
    ['canceled', { kind: 'succeeded' }, 'succeeded', null],
    ['canceled', { kind: 'failed' }, 'canceled', null],
    ['canceled', { kind: 'retry', delayMs: 5_000 }, 'canceled', null],
  ] as const)('a %s delivery whose attempt is judged %j becomes %s', (current, verdict, status, next) => {
    const settled = settleAttempt(current, verdict, now);
    expect({ status: settled.status, next: settled.nextAttemptAt?.toISOString() ?? null }).toEqual({ status, next });
  });
});

describe('checkReplay', () => {
  it.each(['succeeded', 'failed', 'canceled'] as const)('a %s delivery restarts with the full schedule', (status) => {
    expect(checkReplay(status)).toEqual({ ok: true, value: { maxAttempts: 8 } });
  });
  it('a pending delivery cannot be replayed', () => {
    expect(checkReplay('pending')).toEqual({ ok: false, error: 'already_pending' });
  });
});

describe('responseExcerpt', () => {
  it.each([
    ['', null],
    ['ok', 'ok'],
    ['x'.repeat(1_000), 'x'.repeat(1_000)],
    ['x'.repeat(1_001), 'x'.repeat(1_000)],
  ])('keeps at most 1,000 characters (%#)', (body, excerpt) => {
    expect(responseExcerpt(body)).toBe(excerpt);
  });

  it('never splits a character made of two UTF-16 units', () => {
    const excerpt = responseExcerpt(`${'x'.repeat(999)}😀😀`) as string;
    expect(Array.from(excerpt)).toHaveLength(1_000);
    expect(excerpt.endsWith('😀')).toBe(true);
  });
});
