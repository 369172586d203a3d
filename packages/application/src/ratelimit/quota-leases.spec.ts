import { InMemoryRateLimitStore } from '@voiceplane/adapter-fakes';
import { Window, windowAt } from '@voiceplane/domain';
import { QuotaLeases } from './quota-leases';

const at = (time: string) => new Date(`2030-01-01T${time}Z`);
const window = windowAt(at('10:15:00.000'), 60);
const expiresAt = new Date(window.resetAt.getTime() + 60_000);

/** Two instances sharing one store, as two api processes share PostgreSQL. */
function instances() {
  const store = new InMemoryRateLimitStore();
  const leased = (key: string) =>
    store
      .lease([{ bucketKey: key, windowStart: window.start, expiresAt, limit: Number.MAX_SAFE_INTEGER, want: 0 }])
      .then(([l]) => l.total);
  return { store, a: new QuotaLeases(store), b: new QuotaLeases(store), leased };
}

describe('QuotaLeases', () => {
  it('never lets instances together take more than the limit, however they interleave', async () => {
    const { a, b } = instances();
    const now = at('10:15:01.000');
    const answers = await Promise.all(
      Array.from({ length: 300 }, (_, i) => (i % 3 === 0 ? a : b).take('k', 100, window, expiresAt, now)),
    );

    expect(answers.filter((hits) => hits <= 100)).toHaveLength(100);
  });

  it('leases blocks under load, so the store is asked far less than once per hit', async () => {
    const store = new InMemoryRateLimitStore();
    const lease = jest.spyOn(store, 'lease');
    const leases = new QuotaLeases(store);
    for (let i = 0; i < 1_000; i++) await leases.take('k', 100_000, window, expiresAt, at('10:15:01.000'));

    expect(lease.mock.calls.length).toBeLessThan(50);
  });

  it('asks the store once for concurrent requests that find the block spent', async () => {
    const store = new InMemoryRateLimitStore();
    const lease = jest.spyOn(store, 'lease');
    await Promise.all(
      Array.from({ length: 20 }, () => new QuotaLeases(store).take('k', 1_000, window, expiresAt, at('10:15:01.000'))),
    );
    const shared = new QuotaLeases(store);
    lease.mockClear();
    await Promise.all(Array.from({ length: 20 }, () => shared.take('k', 1_000, window, expiresAt, at('10:15:01.000'))));

    expect(lease.mock.calls.length).toBeLessThan(20);
  });

  it('counts a bucket used one request at a time exactly: blocks shrink to single hits as the window fills', async () => {
    const { a, b } = instances();
    const seen = [];
    for (let i = 0; i < 6; i++) seen.push(await (i % 2 ? b : a).take('k', 5, window, expiresAt, at('10:15:01.000')));

    expect(seen).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('gives back what an instance left untouched for a tenth of the window, so the other may spend it', async () => {
    const { a, b, leased } = instances();
    for (let i = 0; i < 40; i++) await a.take('k', 1_000, window, expiresAt, at('10:15:01.000'));
    expect(await leased('k')).toBeGreaterThan(40);

    await a.returnIdle(at('10:15:06.999'));
    expect(await leased('k')).toBeGreaterThan(40);
    await a.returnIdle(at('10:15:07.000'));
    expect(await leased('k')).toBe(40);
    expect(await b.take('k', 41, window, expiresAt, at('10:15:07.000'))).toBe(41);
  });

  it("gives back a one-second window's quota after one idle second, and every lease's when stopping", async () => {
    const { a, store } = instances();
    const total = (key: string, w: Window) =>
      store.lease([{ bucketKey: key, windowStart: w.start, expiresAt, limit: 1e9, want: 0 }]).then(([l]) => l.total);
    const second = windowAt(at('10:15:01.000'), 5);
    for (let i = 0; i < 30; i++) await a.take('s', 1_000, second, expiresAt, at('10:15:01.000'));
    for (let i = 0; i < 30; i++) await a.take('k', 1_000, window, expiresAt, at('10:15:01.000'));

    await a.returnIdle(at('10:15:01.999'));
    expect([(await total('s', second)) > 30, (await total('k', window)) > 30]).toEqual([true, true]);
    await a.returnIdle(at('10:15:02.000'));
    expect([await total('s', second), (await total('k', window)) > 30]).toEqual([30, true]);
    await a.returnIdle(at('10:15:02.000'), true);
    expect(await total('k', window)).toBe(30);
  });

  it('leases a per-minute bucket hit about once a second in growing blocks, not once per hit', async () => {
    const store = new InMemoryRateLimitStore();
    const lease = jest.spyOn(store, 'lease');
    const leases = new QuotaLeases(store);
    for (let i = 0; i < 50; i++)
      await leases.take('k', 100_000, window, expiresAt, new Date(window.start.getTime() + 1_200 * i));

    expect(lease.mock.calls.length).toBeLessThanOrEqual(12);
  });

  it('asks the store for the buckets of one request in a single call', async () => {
    const store = new InMemoryRateLimitStore();
    const lease = jest.spyOn(store, 'lease');
    const leases = new QuotaLeases(store);
    const second = windowAt(at('10:15:01.000'), 1);
    const [minuteHits, secondHits] = await Promise.all([
      leases.take('general:key:1:60', 100, window, expiresAt, at('10:15:01.000')),
      leases.take('chatapp:user:1:1', 5, second, expiresAt, at('10:15:01.000')),
    ]);

    expect([minuteHits, secondHits]).toEqual([1, 1]);
    expect(lease.mock.calls).toHaveLength(1);
    expect(lease.mock.calls[0][0].map((r) => r.bucketKey)).toEqual(['general:key:1:60', 'chatapp:user:1:1']);
  });

  it('tells how much of the window it holds unspent', async () => {
    const { a, leased } = instances();
    for (let i = 0; i < 40; i++) await a.take('k', 1_000, window, expiresAt, at('10:15:01.000'));

    expect((await leased('k')) - a.unspent('k', window)).toBe(40);
    expect(a.unspent('k', windowAt(at('10:16:00.000'), 60))).toBe(0);
  });

  it('does not spend quota leased under a limit that has since been lowered past it', async () => {
    const { a } = instances();
    for (let i = 0; i < 20; i++) await a.take('k', 1_000, window, expiresAt, at('10:15:01.000'));

    expect(await a.take('k', 10, window, expiresAt, at('10:15:01.000'))).toBe(11);
  });
});
