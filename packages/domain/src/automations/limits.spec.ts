import { BACKGROUND_LIMIT_MS, executionLimitMs, IN_REQUEST_LIMIT_MS, syncReplyDeadline, syncReplyExpired } from './limits';

const received = new Date('2026-03-01T10:00:00.000Z');

describe('execution limits (CONTRACT §10.1)', () => {
  it.each([
    ['test', 60_000],
    ['retry', 60_000],
    ['webhook', 600_000],
    ['assistant_event', 600_000],
    ['tool', 600_000],
  ] as const)('a %s run may execute %d ms', (trigger, ms) => {
    expect(executionLimitMs(trigger)).toBe(ms);
  });

  it('names the two limits', () => {
    expect([IN_REQUEST_LIMIT_MS, BACKGROUND_LIMIT_MS]).toEqual([60_000, 600_000]);
  });

  it('a sync webhook waits 10 s for its reply', () => {
    expect(syncReplyDeadline(received)).toEqual(new Date('2026-03-01T10:00:10.000Z'));
    expect(syncReplyExpired(received, new Date('2026-03-01T10:00:09.999Z'))).toBe(false);
    expect(syncReplyExpired(received, new Date('2026-03-01T10:00:10.000Z'))).toBe(true);
  });
});
