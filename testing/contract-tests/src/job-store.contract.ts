import { StoredJob } from '@voiceplane/adapter-fakes';
import { ClaimedJob, JobQueue, JobScheduler } from '@voiceplane/application';

export interface JobStoreUnderTest {
  readonly store: JobScheduler & JobQueue;
  /** The whole table, buried jobs included, in the order jobs were first scheduled. */
  jobs(): Promise<readonly StoredJob[]>;
}

/** Fixed instants: every time goes in as an argument, so nothing here reads a clock. */
const at = (ms: number): Date => new Date(Date.UTC(2030, 0, 1) + ms);

/**
 * The JobScheduler and JobQueue ports' behaviour, run against every job store. `open` gives an
 * empty store for each test.
 */
export function jobStoreContract(name: string, open: () => Promise<JobStoreUnderTest>): void {
  describe(`JobScheduler + JobQueue contract: ${name}`, () => {
    let store: JobScheduler & JobQueue;
    let jobs: () => Promise<readonly StoredJob[]>;
    let leases = 0;
    const claim = (nowMs: number, limit = 10, leaseMs = 30_000): Promise<ClaimedJob[]> =>
      store.claimDue(at(nowMs), limit, at(nowMs + leaseMs), `lease-${++leases}`);
    const kinds = (claimed: readonly ClaimedJob[]) => claimed.map((j) => j.kind);

    beforeEach(async () => {
      ({ store, jobs } = await open());
    });

    it('claims only due jobs, earliest first, up to the limit, counting each claim as an attempt', async () => {
      await store.schedule({ kind: 'c', payload: { n: 3 }, runAt: at(3_000) });
      await store.schedule({ kind: 'a', payload: { n: 1 }, runAt: at(1_000) });
      await store.schedule({ kind: 'b', payload: { n: 2 }, runAt: at(2_000) });
      await store.schedule({ kind: 'later', payload: null, runAt: at(60_000) });

      expect(await claim(999)).toEqual([]);
      const first = await store.claimDue(at(5_000), 2, at(35_000), 'lease-first');
      expect(first).toEqual([
        { id: expect.any(Number), kind: 'a', key: null, payload: { n: 1 }, attempts: 1, leaseToken: 'lease-first' },
        { id: expect.any(Number), kind: 'b', key: null, payload: { n: 2 }, attempts: 1, leaseToken: 'lease-first' },
      ]);
      expect(kinds(await claim(5_000))).toEqual(['c']);
      expect(await claim(5_000)).toEqual([]);
    });

    it('holds a claimed job until its lease runs out; then another runner takes it and the first holder can no longer complete it', async () => {
      await store.schedule({ kind: 'job', payload: null, runAt: at(0) });
      const [first] = await claim(0, 10, 30_000);
      expect((await jobs())[0].leasedUntil).toEqual(at(30_000));

      expect(await claim(29_999)).toEqual([]);
      const [second] = await claim(30_000);
      expect(second).toMatchObject({ id: first.id, attempts: 2 });
      expect(second.leaseToken).not.toBe(first.leaseToken);

      await store.complete(first);
      await store.retry(first, at(1), 'late failure of the first holder');
      await store.bury(first, at(1), 'late burial by the first holder');
      expect(await jobs()).toEqual([
        expect.objectContaining({ attempts: 2, leasedUntil: at(60_000), lastError: null, buriedAt: null }),
      ]);
      await store.complete(second);
      expect(await jobs()).toEqual([]);
    });

    it('keeps one job per key: scheduling the key again replaces kind, time and payload, resets attempts and releases the claim', async () => {
      await store.schedule({ kind: 'reminder', key: 'thing:1', payload: { v: 1 }, runAt: at(1_000) });
      const [held] = await claim(1_000);
      await store.schedule({ kind: 'reminder.v2', key: 'thing:1', payload: { v: 2 }, runAt: at(9_000) });

      expect(await jobs()).toEqual([
        {
          id: held.id,
          kind: 'reminder.v2',
          key: 'thing:1',
          payload: { v: 2 },
          runAt: at(9_000),
          attempts: 0,
          leasedUntil: null,
          lastError: null,
          buriedAt: null,
        },
      ]);
      // The old holder finishing, failing or giving up must leave the new schedule alone.
      await store.complete(held);
      await store.retry(held, at(2_000), 'late failure');
      await store.bury(held, at(2_000), 'late burial');
      expect(await jobs()).toEqual([expect.objectContaining({ runAt: at(9_000), lastError: null, buriedAt: null })]);
      expect(await claim(8_999)).toEqual([]);
      expect(await claim(9_000)).toEqual([
        expect.objectContaining({ kind: 'reminder.v2', key: 'thing:1', payload: { v: 2 }, attempts: 1 }),
      ]);
    });

    it('brings a buried key back when it is scheduled again', async () => {
      await store.schedule({ kind: 'k', key: 'thing:2', payload: 1, runAt: at(0) });
      const [job] = await claim(0);
      await store.bury(job, at(10), 'gave up');
      await store.schedule({ kind: 'k', key: 'thing:2', payload: 2, runAt: at(20) });

      expect(await jobs()).toEqual([
        expect.objectContaining({ payload: 2, attempts: 0, lastError: null, buriedAt: null }),
      ]);
      expect(await claim(20)).toEqual([expect.objectContaining({ payload: 2, attempts: 1 })]);
    });

    it('never merges jobs without a key', async () => {
      await store.schedule({ kind: 'same', payload: 'one', runAt: at(0) });
      await store.schedule({ kind: 'same', payload: 'two', runAt: at(0) });

      expect((await jobs()).map((j) => j.payload)).toEqual(['one', 'two']);
    });

    it('cancels the jobs of the given keys, claimed or not, ignoring unknown keys; a late retry does not bring one back', async () => {
      await store.schedule({ kind: 'k', key: 'a', payload: null, runAt: at(0) });
      await store.schedule({ kind: 'k', key: 'b', payload: null, runAt: at(100_000) });
      await store.schedule({ kind: 'k', key: 'c', payload: null, runAt: at(0) });
      await store.schedule({ kind: 'k', payload: 'no key', runAt: at(0) });
      const held = (await claim(0)).find((j) => j.key === 'a')!;

      await store.cancel([]);
      await store.cancel(['a', 'b', 'unknown']);
      await store.retry(held, at(5), 'late failure');

      expect((await jobs()).map((j) => j.key)).toEqual(['c', null]);
    });

    it('releases a retried job to run again at the time given, keeping the error', async () => {
      await store.schedule({ kind: 'flaky', payload: null, runAt: at(0) });
      const [job] = await claim(0);

      await store.retry({ ...job, leaseToken: 'someone else' }, at(1), 'not the holder');
      expect(await jobs()).toEqual([
        expect.objectContaining({ runAt: at(0), leasedUntil: at(30_000), lastError: null }),
      ]);
      await store.retry(job, at(4_000), 'boom');

      expect(await jobs()).toEqual([
        expect.objectContaining({
          runAt: at(4_000),
          attempts: 1,
          leasedUntil: null,
          lastError: 'boom',
          buriedAt: null,
        }),
      ]);
      expect(await claim(3_999)).toEqual([]);
      expect(await claim(4_000)).toEqual([expect.objectContaining({ id: job.id, attempts: 2 })]);
    });

    it('keeps a buried job for inspection and never hands it out again', async () => {
      await store.schedule({ kind: 'hopeless', payload: { n: 1 }, runAt: at(0) });
      const [job] = await claim(0);

      await store.bury({ ...job, leaseToken: 'someone else' }, at(1), 'not the holder');
      expect((await jobs())[0].buriedAt).toBeNull();
      await store.bury(job, at(500), 'boom for good');

      expect(await jobs()).toEqual([
        {
          id: job.id,
          kind: 'hopeless',
          key: null,
          payload: { n: 1 },
          runAt: at(0),
          attempts: 1,
          leasedUntil: null,
          lastError: 'boom for good',
          buriedAt: at(500),
        },
      ]);
      expect(await claim(10 ** 12)).toEqual([]);
    });

    it('keeps payloads as JSON: a claim gets a copy, Dates become ISO strings, a missing payload is null', async () => {
      const payload = { when: at(0), list: [1, 'two'], gone: undefined, nested: { ok: true } };
      await store.schedule({ kind: 'json', payload, runAt: at(0) });
      await store.schedule({ kind: 'nothing', payload: undefined, runAt: at(1) });
      payload.list.push('added after scheduling');

      const [json, nothing] = await claim(10);
      expect(json.payload).toEqual({ when: '2030-01-01T00:00:00.000Z', list: [1, 'two'], nested: { ok: true } });
      expect(nothing.payload).toBeNull();
      (json.payload as { list: unknown[] }).list.push('changed by a handler');
      expect((await jobs())[0].payload).toEqual({
        when: '2030-01-01T00:00:00.000Z',
        list: [1, 'two'],
        nested: { ok: true },
      });
    });

    it("answers when a claim could next take a job: the earliest due time, or a held job's lease end; never a buried job", async () => {
      expect(await store.nextDueAt()).toBeNull();
      await store.schedule({ kind: 'later', payload: null, runAt: at(50_000) });
      await store.schedule({ kind: 'soon', payload: null, runAt: at(1_000) });
      expect(await store.nextDueAt()).toEqual(at(1_000));

      // Held until 31 s: the one due at 50 s is not the earliest any more, the lease end is.
      const [soon] = await claim(1_000, 1, 30_000);
      expect(await store.nextDueAt()).toEqual(at(31_000));
      await store.retry(soon, at(2_000), 'again soon');
      expect(await store.nextDueAt()).toEqual(at(2_000));
      const [again] = await claim(2_000, 1);
      await store.bury(again, at(2_000), 'gave up');
      expect(await store.nextDueAt()).toEqual(at(50_000));

      // Past due counts too: a claim would take it at once.
      await store.schedule({ kind: 'overdue', key: 'late', payload: null, runAt: at(-5_000) });
      expect(await store.nextDueAt()).toEqual(at(-5_000));
      await store.cancel(['late']);
      const [later] = await claim(50_000);
      await store.complete(later);
      expect(await store.nextDueAt()).toBeNull();
    });

    it('never hands one job to two runners claiming at the same moment', async () => {
      for (let i = 0; i < 20; i++) await store.schedule({ kind: 'count', payload: i, runAt: at(i) });

      const batches = await Promise.all([1, 2, 3, 4].map(() => claim(5_000, 8)));

      const claimed = batches.flat().map((j) => j.payload as number);
      expect(claimed.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i));
      expect(batches.every((batch) => batch.length <= 8)).toBe(true);
    });
  });
}
