import { InMemoryRateLimitStore, ManualClock } from '@voiceplane/adapter-fakes';
import { Bucket, RateLimiter } from './rate-limiter';

// The window arithmetic itself is pinned in domain (fixed-window.spec); these check how the
// limiter counts through the store and which bucket it reports.
const at = (time: string) => new Date(`2030-01-01T${time}Z`);
const epochSeconds = (time: string) => at(time).getTime() / 1000;

function setup(start: string) {
  const clock = new ManualClock(at(start));
  const limiter = new RateLimiter(new InMemoryRateLimitStore(), clock);
  return { clock, consume: (...buckets: Bucket[]) => limiter.consume(buckets) };
}

const perMinute = (limit: number, key = 'general:key:1'): Bucket => ({ key, limit, windowSeconds: 60 });
const perHour = (limit: number, key = 'general:key:1'): Bucket => ({ key, limit, windowSeconds: 3_600 });

describe('RateLimiter', () => {
  it('allows up to the limit in a window, refuses until it ends, and starts afresh in the next', async () => {
    const { clock, consume } = setup('10:15:00.000');
    const seen = [];
    for (let i = 0; i < 4; i++) seen.push(await consume(perMinute(3)));

    expect(seen.map((d) => [d.allowed, d.reported.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    expect(seen[3].reported).toEqual({
      allowed: false,
      limit: 3,
      remaining: 0,
      resetEpochSeconds: epochSeconds('10:16:00.000'),
      retryAfterSeconds: 60,
      key: 'general:key:1',
      windowSeconds: 60,
    });
    clock.set(at('10:15:59.999'));
    expect(await consume(perMinute(3))).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
    clock.set(at('10:16:00.000'));
    expect(await consume(perMinute(3))).toEqual({
      allowed: true,
      reported: expect.objectContaining({ remaining: 2, resetEpochSeconds: epochSeconds('10:17:00.000') }),
      retryAfterSeconds: 0,
    });
  });

  it('counts a request refused by one bucket against the others too', async () => {
    const { clock, consume } = setup('10:15:00.000');
    for (let i = 0; i < 3; i++) await consume(perMinute(2), perHour(5));
    clock.set(at('10:16:00.000'));

    expect((await consume(perMinute(2), perHour(5))).reported).toMatchObject({ windowSeconds: 3_600, remaining: 1 });
    expect((await consume(perMinute(2), perHour(5))).reported).toMatchObject({ windowSeconds: 3_600, remaining: 0 });
    expect(await consume(perMinute(2), perHour(5))).toMatchObject({
      allowed: false,
      reported: { windowSeconds: 3_600 },
    });
  });

  it('reports the tightest bucket while all allow: the lowest remaining, the longest window on a tie', async () => {
    const { consume } = setup('10:15:00.000');

    expect((await consume(perMinute(10, 'a'), perHour(3, 'b'))).reported).toMatchObject({ key: 'b', remaining: 2 });
    expect((await consume(perMinute(3, 'c'), perHour(3, 'd'))).reported).toMatchObject({
      key: 'd',
      windowSeconds: 3_600,
      remaining: 2,
    });
  });

  it('when refusing, reports the tightest bucket and asks to retry only once every exhausted bucket has reset', async () => {
    const { consume } = setup('10:15:30.000');
    const buckets = [perMinute(2, 'burst'), perHour(3, 'sustained')];
    await consume(...buckets);
    await consume(...buckets);

    // Third request: the minute refuses; the hour allows it but is now used up too, so the next
    // request passes only when the hour ends — not in 30 s, when the minute does.
    expect(await consume(...buckets)).toMatchObject({
      allowed: false,
      retryAfterSeconds: 44 * 60 + 30,
      reported: { key: 'sustained', remaining: 0, limit: 3, resetEpochSeconds: epochSeconds('11:00:00.000') },
    });
    expect(await consume(...buckets)).toMatchObject({
      allowed: false,
      retryAfterSeconds: 44 * 60 + 30,
      reported: { key: 'sustained' },
    });
  });

  it('when refusing, waits only for the refusing bucket while the others have room left', async () => {
    const { consume } = setup('10:15:30.000');
    const buckets = [perMinute(1, 'burst'), perHour(100, 'sustained')];
    await consume(...buckets);
    expect(await consume(...buckets)).toMatchObject({
      allowed: false,
      retryAfterSeconds: 30,
      reported: { key: 'burst', remaining: 0 },
    });
  });

  it('keeps one key counted per window length apart, even when the windows start at the same instant', async () => {
    const { consume } = setup('10:00:00.000');

    const decision = await consume(perMinute(5, 'permission:user:1'), perHour(5, 'permission:user:1'));

    expect(decision.reported).toMatchObject({ windowSeconds: 3_600, remaining: 4 });
  });
});
