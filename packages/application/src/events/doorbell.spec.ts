import { Doorbell } from './doorbell';

describe('Doorbell', () => {
  it('wakes a waiting loop at once when rung', async () => {
    const bell = new Doorbell();
    const started = Date.now();
    const waiting = bell.wait(10_000);
    bell.ring();
    await waiting;
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('remembers a ring that came while nobody waited, once', async () => {
    const bell = new Doorbell();
    bell.ring();
    bell.ring();
    const started = Date.now();
    await bell.wait(10_000);
    expect(Date.now() - started).toBeLessThan(100);
    await bell.wait(50);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
  });

  it('gives up waiting after the timeout', async () => {
    const started = Date.now();
    await new Doorbell().wait(60);
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);
  });
});
