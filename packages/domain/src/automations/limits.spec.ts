import { BACKGROUND_LIMIT_MS, IN_REQUEST_LIMIT_MS, SYNC_REPLY_WAIT_MS } from './limits';
import { executionLimitMs } from './run';

describe('execution limits', () => {
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
    expect(SYNC_REPLY_WAIT_MS).toBe(10_000);
  });
});
