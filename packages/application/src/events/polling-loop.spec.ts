import { eventually } from '@voiceplane/test-env';
import { Doorbell } from './doorbell';
import { PollingLoop } from './polling-loop';

describe('PollingLoop', () => {
  const logger = { info: jest.fn(), warn: jest.fn(), error: jest.fn() };

  it('runs steps back to back while more is waiting, waits for the bell when idle, and stops after the step in hand', async () => {
    const doorbell = new Doorbell();
    let calls = 0;
    const loop = new PollingLoop({
      doorbell,
      logger,
      pollMs: 60_000,
      baseBackoffMs: 1,
      maxBackoffMs: 5,
      failureMessage: 'x',
      step: async () => ++calls < 3,
    });
    loop.start();
    await eventually(() => calls >= 3, 'the steps while more was waiting');
    expect(calls).toBe(3);
    doorbell.ring();
    await eventually(() => calls >= 4, 'the step the bell rang for');
    expect(calls).toBe(4);
    await loop.stop();
    expect(loop.isStopping).toBe(true);
    await new Promise((r) => setTimeout(r, 20));
    expect(calls).toBe(4);
  });

  it('backs off while steps fail, logs each failure, and carries on once they succeed', async () => {
    const doorbell = new Doorbell();
    let calls = 0;
    const warn = jest.fn();
    const loop = new PollingLoop({
      doorbell,
      logger: { ...logger, warn },
      pollMs: 60_000,
      baseBackoffMs: 1,
      maxBackoffMs: 4,
      failureMessage: 'could not work',
      step: async () => {
        calls++;
        if (calls <= 3) throw new Error(`boom ${calls}`);
        return false;
      },
    });
    loop.start();
    await eventually(() => calls >= 4, 'a step that succeeds after three failures');
    await loop.stop();
    expect(calls).toBe(4);
    expect(warn.mock.calls.map(([details, message]) => [details.retryInMs, message])).toEqual([
      [2, 'could not work'],
      [4, 'could not work'],
      [4, 'could not work'],
    ]);
  });
});
