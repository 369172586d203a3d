import { InMemoryRateLimitStore } from '@voiceplane/adapter-fakes';
import { windowAt } from '@voiceplane/domain';
import { QuotaLeases } from './quota-leases';

const at = (time: string) => new Date(`2030-01-01T${time}Z`);
const window = windowAt(at('10:15:00.000'), 60);
const expiresAt = new Date(window.resetAt.getTime() + 60_000);

/** Two instances sharing one store, as two api processes share PostgreSQL. */
function instances() {
  const store = new InMemoryRateLimitStore();
  const leased = (key: string) => store.lease(key, window.start, expiresAt, Number.MAX_SAFE_INTEGER, 0).then((l) => l.total);
  return { store, a: new QuotaLeases(store), b: new QuotaLeases(store), leased };
}

describe('QuotaLeases', () => {
  it('never lets instances together take more than the limit, however they interleave', async () => {
    const { a, b } = instances();
    const now = at('10:15:01.000');
    const answers = await Promise.all(Array.from({ length: 300 }, (_, i) => (i % 3 === 0 ? a : b).take('k', 100, window, expiresAt, now)));

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
    await Promise.all(Array.from({ length: 20 }, () => new QuotaLeases(store).take('k', 1_000, window, expiresAt, at('10:15:01.000'))));
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

  it('gives back what an idle instance holds, so the other may spend it', async () => {
    const { a, b, leased } = instances();
    for (let i = 0; i < 40; i++) await a.take('k', 1_000, window, expiresAt, at('10:15:01.000'));
    expect(await leased('k')).toBeGreaterThan(40);

    await a.returnIdle(at('10:15:01.500'), 1_000);
    expect(await leased('k')).toBeGreaterThan(40);
    await a.returnIdle(at('10:15:02.000'), 1_000);
    expect(await leased('k')).toBe(40);
    expect(await b.take('k', 41, window, expiresAt, at('10:15:02.000'))).toBe(41);
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
