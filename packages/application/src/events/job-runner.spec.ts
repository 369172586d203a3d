import { InMemoryJobStore, ManualClock, SequentialIds } from '@voiceplane/adapter-fakes';
import { Doorbell } from './doorbell';
import { JobRunner, JobRunnerOptions } from './job-runner';
import { ClaimedJob, JobHandler } from './ports';

// The integration spec (adapter-typeorm) runs the loop on PostgreSQL with real time; these pin
// the exact schedule, leases and slots with a manual clock, one runDue at a time.
const START = new Date('2030-01-01T00:00:00.000Z');
const after = (ms: number) => new Date(START.getTime() + ms);

function setup(handlers: JobHandler[], options: JobRunnerOptions = {}) {
  const store = new InMemoryJobStore();
  const clock = new ManualClock(START);
  const logger = { info: jest.fn(), warn: jest.fn(), error: jest.fn() };
  const ids = new SequentialIds();
  const newRunner = () => new JobRunner(store, handlers, clock, ids, new Doorbell(), logger, options);
  const runner = newRunner();
  /** Claims what is due now and waits for those jobs to finish. */
  const runDue = async (r = runner) => {
    const claimed = await r.runDue();
    await r.stop();
    return claimed;
  };
  return { store, clock, logger, runner, newRunner, runDue };
}

/** A handler that runs until the test lets it finish. */
function heldHandler(kind: string) {
  const started: ClaimedJob[] = [];
  const releases: Array<() => void> = [];
  const handler: JobHandler = {
    kind,
    handle: (job) => {
      started.push(job);
      return new Promise<void>((resolve) => releases.push(resolve));
    },
  };
  return { handler, started, release: (i: number) => releases[i]() };
}

describe('JobRunner', () => {
  it('retries a failing job after 2 s, doubling each time up to 10 minutes, and buries it on the last attempt', async () => {
    let runs = 0;
    const { store, clock, logger, runDue } = setup(
      [
        {
          kind: 'flaky',
          handle: async () => {
            runs++;
            throw new Error(`failure ${runs}`);
          },
        },
      ],
      { maxAttempts: 12 },
    );
    await store.schedule({ kind: 'flaky', payload: null, runAt: START });

    const delays: number[] = [];
    for (let attempt = 1; attempt < 12; attempt++) {
      expect(await runDue()).toBe(1);
      const [job] = store.jobs();
      delays.push(job.runAt.getTime() - clock.now().getTime());
      expect(job).toMatchObject({
        attempts: attempt,
        lastError: `failure ${attempt}`,
        leasedUntil: null,
        buriedAt: null,
      });
      clock.set(new Date(job.runAt.getTime() - 1));
      expect(await runDue()).toBe(0);
      clock.advance(1);
    }
    expect(await runDue()).toBe(1);

    expect(delays).toEqual([2, 4, 8, 16, 32, 64, 128, 256, 512, 600, 600].map((s) => s * 1_000));
    expect(store.jobs()).toEqual([
      expect.objectContaining({ attempts: 12, lastError: 'failure 12', buriedAt: clock.now() }),
    ]);
    expect(logger.warn.mock.calls.map(([details]) => details.retryInMs)).toEqual(delays);
    expect(logger.error).toHaveBeenCalledWith(
      expect.objectContaining({ attempts: 12, error: 'failure 12' }),
      'job failed for the last time; buried',
    );
    clock.advance(10 ** 9);
    expect(await runDue()).toBe(0);
  });

  it('holds a job for leaseMs under a fresh lease token; when the lease runs out another runner takes it, and the first finishing late leaves it alone', async () => {
    const work = heldHandler('slow');
    const { store, clock, runner, newRunner } = setup([work.handler], { leaseMs: 5_000 });
    const other = newRunner();
    await store.schedule({ kind: 'slow', payload: null, runAt: START });

    expect(await runner.runDue()).toBe(1);
    expect(store.jobs()[0].leasedUntil).toEqual(after(5_000));
    clock.advance(4_999);
    expect(await other.runDue()).toBe(0);
    clock.advance(1);
    expect(await other.runDue()).toBe(1);

    const [first, second] = work.started;
    expect([first.attempts, second.attempts]).toEqual([1, 2]);
    expect(first.leaseToken).toMatch(/^lease_[0-9A-Za-z]{22}$/);
    expect(second.leaseToken).toMatch(/^lease_[0-9A-Za-z]{22}$/);
    expect(second.leaseToken).not.toBe(first.leaseToken);
    work.release(0);
    await runner.stop();
    expect(store.jobs()).toEqual([expect.objectContaining({ attempts: 2, leasedUntil: after(10_000) })]);
    work.release(1);
    await other.stop();
    expect(store.jobs()).toEqual([]);
  });

  it('claims no more jobs than it has free slots and hands each to the handler of its kind', async () => {
    const a = heldHandler('a');
    const b = heldHandler('b');
    const { store, runner } = setup([a.handler, b.handler], { concurrency: 2 });
    await store.schedule({ kind: 'b', payload: 'b-1', runAt: after(-2) });
    await store.schedule({ kind: 'a', payload: 'a-1', runAt: after(-1) });
    await store.schedule({ kind: 'a', payload: 'a-2', runAt: START });

    expect(await runner.runDue()).toBe(2);
    expect(await runner.runDue()).toBe(0);
    expect([a.started.map((j) => j.payload), b.started.map((j) => j.payload)]).toEqual([['a-1'], ['b-1']]);

    a.release(0);
    b.release(0);
    await runner.stop();
    expect(await runner.runDue()).toBe(1);
    a.release(1);
    await runner.stop();
    expect(a.started.map((j) => j.payload)).toEqual(['a-1', 'a-2']);
    expect(store.jobs()).toEqual([]);
  });

  it('does not delete a job its handler scheduled again under the same key', async () => {
    const { store, runDue } = setup([
      {
        kind: 'reminder',
        handle: async (job) =>
          store.schedule({ kind: 'reminder', key: job.key!, payload: { round: 2 }, runAt: after(60_000) }),
      },
    ]);
    await store.schedule({ kind: 'reminder', key: 'call:9:reminder', payload: { round: 1 }, runAt: START });

    await runDue();

    expect(store.jobs()).toEqual([
      expect.objectContaining({
        key: 'call:9:reminder',
        payload: { round: 2 },
        runAt: after(60_000),
        attempts: 0,
        leasedUntil: null,
        lastError: null,
      }),
    ]);
  });

  it('does not move a job its handler scheduled again before throwing', async () => {
    const { store, runDue } = setup([
      {
        kind: 'reminder',
        handle: async (job) => {
          await store.schedule({ kind: 'reminder', key: job.key!, payload: { round: 2 }, runAt: after(60_000) });
          throw new Error('failed after rescheduling');
        },
      },
    ]);
    await store.schedule({ kind: 'reminder', key: 'call:9:reminder', payload: { round: 1 }, runAt: START });

    await runDue();

    expect(store.jobs()).toEqual([
      expect.objectContaining({ payload: { round: 2 }, runAt: after(60_000), attempts: 0, lastError: null }),
    ]);
  });

  it('logs a failure it cannot record and runs the job again once the lease runs out', async () => {
    let runs = 0;
    const { store, clock, logger, runDue } = setup(
      [
        {
          kind: 'once-broken',
          handle: async () => {
            if (++runs === 1) throw new Error('handler failed');
          },
        },
      ],
      { leaseMs: 5_000 },
    );
    await store.schedule({ kind: 'once-broken', payload: null, runAt: START });
    jest.spyOn(store, 'retry').mockRejectedValueOnce(new Error('database unreachable'));

    await runDue();

    expect(logger.error).toHaveBeenCalledWith(
      expect.objectContaining({ error: 'database unreachable' }),
      'could not record a failed job; its lease will expire',
    );
    expect(store.jobs()).toEqual([
      expect.objectContaining({ attempts: 1, leasedUntil: after(5_000), lastError: null }),
    ]);
    clock.advance(5_000);
    expect(await runDue()).toBe(1);
    expect(runs).toBe(2);
    expect(store.jobs()).toEqual([]);
  });
});
