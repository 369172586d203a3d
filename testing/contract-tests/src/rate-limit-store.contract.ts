import { RateLimitStore } from '@voiceplane/application';

const minute = (n: number): Date => new Date(Date.UTC(2030, 0, 1, 10, n));
/** Rows outlive their window; when they go is housekeeping, not counting. */
const expiry = (windowStart: Date): Date => new Date(windowStart.getTime() + 120_000);

/** The RateLimitStore port's behaviour, run against every store. `open` gives an empty store for each test. */
export function rateLimitStoreContract(name: string, open: () => Promise<RateLimitStore>): void {
  describe(`RateLimitStore contract: ${name}`, () => {
    let store: RateLimitStore;
    const hit = (bucket: string, windowStart: Date, cost?: number) =>
      store.hit(bucket, windowStart, expiry(windowStart), cost);
    const lease = (bucketKey: string, windowStart: Date, limit: number, want: number) =>
      store.lease([{ bucketKey, windowStart, expiresAt: expiry(windowStart), limit, want }]).then(([l]) => l);

    beforeEach(async () => {
      store = await open();
    });

    it('adds one hit by default and returns the total after adding', async () => {
      expect([
        await hit('general:key:1', minute(0)),
        await hit('general:key:1', minute(0)),
        await hit('general:key:1', minute(0)),
      ]).toEqual([1, 2, 3]);
    });

    it('adds `cost` hits at once', async () => {
      expect(await hit('send:user:1', minute(0), 5)).toBe(5);
      expect(await hit('send:user:1', minute(0))).toBe(6);
      expect(await hit('send:user:1', minute(0), 3)).toBe(9);
    });

    it('counts each bucket in each window on its own, whatever expiry a caller passes', async () => {
      await hit('general:key:1', minute(0), 4);
      expect(await hit('general:key:1', minute(1))).toBe(1);
      expect(await hit('general:key:2', minute(0))).toBe(1);
      expect(await store.hit('general:key:1', minute(0), minute(30))).toBe(5);
    });

    it('adds concurrent hits atomically: no two callers see the same total', async () => {
      const totals = await Promise.all(Array.from({ length: 25 }, () => hit('login:a@b.c:127.0.0.1', minute(0))));

      expect(totals.sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    });

    it('leases up to `want` hits and never past the limit, counting them with plain hits', async () => {
      expect(await lease('general:key:3', minute(0), 10, 4)).toEqual({ granted: 4, total: 4 });
      expect(await hit('general:key:3', minute(0))).toBe(5);
      expect(await lease('general:key:3', minute(0), 10, 8)).toEqual({ granted: 5, total: 10 });
      expect(await lease('general:key:3', minute(0), 10, 1)).toEqual({ granted: 0, total: 10 });
      expect(await lease('general:key:3', minute(0), 12, 3)).toEqual({ granted: 2, total: 12 });
    });

    it('grants concurrent leases atomically: together they never pass the limit', async () => {
      const leases = await Promise.all(Array.from({ length: 25 }, () => lease('login:x', minute(0), 30, 2)));

      expect(leases.reduce((sum, l) => sum + l.granted, 0)).toBe(30);
    });

    it('leases several buckets in one call, each against its own limit, answering in the order asked', async () => {
      await hit('send:user:7', minute(0), 4);
      const answers = await store.lease([
        { bucketKey: 'send:user:7', windowStart: minute(0), expiresAt: expiry(minute(0)), limit: 5, want: 3 },
        { bucketKey: 'general:key:7', windowStart: minute(0), expiresAt: expiry(minute(0)), limit: 100, want: 8 },
        { bucketKey: 'general:key:7', windowStart: minute(1), expiresAt: expiry(minute(1)), limit: 2, want: 8 },
      ]);

      expect(answers).toEqual([
        { granted: 1, total: 5 },
        { granted: 8, total: 8 },
        { granted: 2, total: 2 },
      ]);
      expect(await store.lease([])).toEqual([]);
    });

    it('grants concurrent several-bucket leases atomically and without deadlocking, whatever order they name the buckets in', async () => {
      const ask = (keys: string[]) =>
        store.lease(
          keys.map((bucketKey) => ({
            bucketKey,
            windowStart: minute(0),
            expiresAt: expiry(minute(0)),
            limit: 20,
            want: 1,
          })),
        );
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) => ask(i % 2 ? ['x:a', 'x:b', 'x:c'] : ['x:c', 'x:b', 'x:a'])),
      );

      for (const k of [0, 1, 2]) expect(answers.reduce((sum, a) => sum + a[k].granted, 0)).toBe(20);
    });

    it('takes back hits given back, for others to lease', async () => {
      await lease('general:key:4', minute(0), 10, 10);
      await store.giveBack('general:key:4', minute(0), 3);

      expect(await lease('general:key:4', minute(0), 10, 5)).toEqual({ granted: 3, total: 10 });
      await store.giveBack('general:key:5', minute(0), 3);
      expect(await lease('general:key:5', minute(0), 10, 1)).toEqual({ granted: 1, total: 1 });
    });
  });
}
