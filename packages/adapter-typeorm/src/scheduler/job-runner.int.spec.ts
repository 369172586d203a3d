import { ClaimedJob, CryptoIds, Doorbell, JobHandler, JobRunner } from '@voiceplane/application';
import { createTestDatabase, eventually, TestDatabase, WAIT_CEILING_MS } from '@voiceplane/test-env';
import { Database } from '../database';
import { JOBS_CHANNEL, PostgresNotifications } from '../outbox/notifications';
import { JobsNotifier } from '../outbox/outbox-notifier';
import { PostgresJobStore } from './postgres-job-store';

const ids = new CryptoIds();
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
const onRealServer = process.env.DATABASE_URL ? it : it.skip;

let db: TestDatabase;
let database: Database;
let store: CountingJobStore;

/** The store, counting the runner's looks, so a test can wait until the runner has looked and is idle. */
class CountingJobStore extends PostgresJobStore {
  looks = 0;

  override async claimDue(...args: Parameters<PostgresJobStore['claimDue']>): ReturnType<PostgresJobStore['claimDue']> {
    const claimed = await super.claimDue(...args);
    this.looks++;
    return claimed;
  }
}

/** Longer than any wait in this file: a job that runs at all ran because a doorbell rang, not because the runner polled. */
const NEVER_POLLS_MS = 10 * WAIT_CEILING_MS;

beforeAll(async () => {
  db = await createTestDatabase();
  database = new Database(db.dataSource);
  store = new CountingJobStore(database);
});
afterAll(async () => db.close());
beforeEach(async () => {
  await database.query('DELETE FROM scheduled_jobs');
});

const at = (ms: number) => new Date(Date.UTC(2030, 0, 1) + ms);
const claim = (nowMs: number, limit = 10, leaseMs = 30_000) =>
  store.claimDue(at(nowMs), limit, at(nowMs + leaseMs), ids.token('lease_', 22));
const rows = () =>
  database.query<{
    kind: string;
    key: string | null;
    attempts: number;
    last_error: string | null;
    buried: boolean;
    run_at: Date;
  }>('SELECT kind, key, attempts, last_error, buried_at IS NOT NULL AS buried, run_at FROM scheduled_jobs ORDER BY id');

describe('PostgresJobStore', () => {
  it('hands out due jobs only, earliest first, each to one claimer until its lease runs out', async () => {
    await store.schedule({ kind: 'b', payload: { n: 2 }, runAt: at(2_000) });
    await store.schedule({ kind: 'a', payload: { n: 1 }, runAt: at(1_000) });
    await store.schedule({ kind: 'later', payload: null, runAt: at(60_000) });

    expect(await claim(500)).toEqual([]);
    const first = await claim(5_000);
    expect(first.map((j) => [j.kind, j.payload, j.attempts])).toEqual([
      ['a', { n: 1 }, 1],
      ['b', { n: 2 }, 1],
    ]);
    expect(await claim(5_000)).toEqual([]);
    // The claimer died: 30 s later the lease has run out and another runner takes the jobs.
    const again = await claim(35_000);
    expect(again.map((j) => [j.kind, j.attempts])).toEqual([
      ['a', 2],
      ['b', 2],
    ]);
    // A late completion by the first claimer changes nothing: its lease is gone.
    await store.complete(first[0]);
    expect((await rows()).map((r) => r.kind)).toEqual(['b', 'a', 'later']);
    await store.complete(again[0]);
    expect((await rows()).map((r) => r.kind)).toEqual(['b', 'later']);
  });

  it('keeps one job per key: scheduling the key again moves it and releases any claim', async () => {
    await store.schedule({ kind: 'k', key: 'thing:1', payload: { v: 1 }, runAt: at(1_000) });
    const [held] = await claim(1_000);
    await store.schedule({ kind: 'k', key: 'thing:1', payload: { v: 2 }, runAt: at(9_000) });
    expect(await rows()).toEqual([
      { kind: 'k', key: 'thing:1', attempts: 0, last_error: null, buried: false, run_at: at(9_000) },
    ]);
    // The holder finishing (or failing) must not delete or move the new schedule.
    await store.complete(held);
    await store.retry(held, at(2_000), 'late failure');
    expect((await rows())[0]).toMatchObject({ run_at: at(9_000), last_error: null });
    const [next] = await claim(9_000);
    expect(next.payload).toEqual({ v: 2 });
    await store.cancel(['thing:1', 'thing:unknown']);
    expect(await rows()).toEqual([]);
  });

  it('retries a failed job at the time given and buries one that keeps failing', async () => {
    await store.schedule({ kind: 'flaky', payload: null, runAt: at(0) });
    const [job] = await claim(0);
    await store.retry(job, at(4_000), 'boom');
    expect(await claim(3_999)).toEqual([]);
    const [retried] = await claim(4_000);
    expect(retried.attempts).toBe(2);
    await store.bury(retried, at(4_001), 'boom again');
    expect(await rows()).toEqual([
      { kind: 'flaky', key: null, attempts: 2, last_error: 'boom again', buried: true, run_at: at(4_000) },
    ]);
    expect(await claim(1_000_000)).toEqual([]);
  });
});

describe('JobRunner', () => {
  const clock = { now: () => new Date() };
  function runner(
    handlers: JobHandler[],
    options: { concurrency?: number; leaseMs?: number; maxAttempts?: number } = {},
  ) {
    return new JobRunner(store, handlers, clock, ids, new Doorbell(), silent, { pollMs: 20, ...options });
  }

  it('runs due jobs with the handler of their kind and deletes them', async () => {
    const seen: unknown[] = [];
    const r = runner([{ kind: 'greet', handle: async (job) => void seen.push(job.payload) }]);
    await store.schedule({ kind: 'greet', payload: 'now', runAt: new Date() });
    await store.schedule({ kind: 'greet', payload: 'later', runAt: new Date(Date.now() + 60_000) });
    try {
      r.start();
      await eventually(() => seen.length === 1, 'the due job to run');
    } finally {
      await r.stop();
    }
    expect(seen).toEqual(['now']);
    expect((await rows()).map((row) => row.kind)).toEqual(['greet']);
  });

  it('backs off a handler that throws, then buries the job after the last attempt', async () => {
    let runs = 0;
    let thrownAt = 0;
    const r = runner(
      [
        {
          kind: 'broken',
          handle: async () => {
            runs++;
            thrownAt = Date.now();
            throw new Error(`failure ${runs}`);
          },
        },
      ],
      { maxAttempts: 2 },
    );
    await store.schedule({ kind: 'broken', payload: null, runAt: new Date() });
    try {
      r.start();
      await eventually(async () => (await rows())[0]?.last_error === 'failure 1', 'the first failure to be recorded');
      const [afterFirst] = await rows();
      // The retry time is read from the clock after the throw, so this holds however slow the machine is.
      expect(afterFirst.run_at.getTime() - thrownAt).toBeGreaterThanOrEqual(2_000);
      await database.query('UPDATE scheduled_jobs SET run_at = now()');
      await eventually(async () => (await rows())[0]?.buried === true, 'the job to be buried');
    } finally {
      await r.stop();
    }
    expect(runs).toBe(2);
    expect(await rows()).toEqual([expect.objectContaining({ attempts: 2, last_error: 'failure 2', buried: true })]);
  });

  it('leaves a job of an unknown kind for a runner that knows it', async () => {
    const r = runner([]);
    await store.schedule({ kind: 'from.the.future', payload: null, runAt: new Date() });
    try {
      r.start();
      await eventually(async () => (await rows())[0]?.last_error !== null, 'the unknown kind to be recorded');
    } finally {
      await r.stop();
    }
    expect(await rows()).toEqual([
      expect.objectContaining({
        kind: 'from.the.future',
        attempts: 1,
        buried: false,
        last_error: 'no handler for job kind "from.the.future" in this process',
      }),
    ]);
  });

  it('refuses two handlers for one kind', () => {
    const handler = { kind: 'x', handle: async () => undefined };
    expect(() => runner([handler, handler])).toThrow('two handlers for job kind "x"');
  });

  it('finishes the jobs in hand when stopped', async () => {
    let finished = 0;
    const r = runner([
      {
        kind: 'slow',
        handle: async () => {
          await new Promise((res) => setTimeout(res, 300));
          finished++;
        },
      },
    ]);
    for (let i = 0; i < 3; i++) await store.schedule({ kind: 'slow', payload: i, runAt: new Date() });
    try {
      r.start();
      await eventually(
        async () =>
          (
            await database.query<{ n: number }>(
              'SELECT count(*)::int AS n FROM scheduled_jobs WHERE locked_until IS NOT NULL',
            )
          )[0].n === 3,
        'all three jobs to be claimed',
      );
    } finally {
      await r.stop();
    }
    expect(finished).toBe(3);
    expect(await rows()).toEqual([]);
  });

  it('sleeps until the next due job and runs it then, with no look in between', async () => {
    let ranAt = 0;
    const r = new JobRunner(
      store,
      [{ kind: 'later', handle: async () => void (ranAt = Date.now()) }],
      clock,
      ids,
      new Doorbell(),
      silent,
      { pollMs: NEVER_POLLS_MS },
    );
    const runAt = new Date(Date.now() + 600);
    await store.schedule({ kind: 'later', payload: null, runAt });
    const looked = store.looks;
    try {
      r.start();
      await eventually(() => ranAt > 0, 'the job to run at its time');
    } finally {
      await r.stop();
    }
    expect(ranAt).toBeGreaterThanOrEqual(runAt.getTime());
    // The first look (nothing due yet), then the one at the due time; a slow look may need one more.
    expect(store.looks - looked).toBeLessThanOrEqual(3);
  });

  it('is rung by a job scheduled in its own process once it commits, even one due before its planned wake-up', async () => {
    const doorbell = new Doorbell();
    const notifier = new JobsNotifier(database, silent);
    notifier.wakeAlso(doorbell);
    const inProcess = new PostgresJobStore(database, notifier);
    const ran: string[] = [];
    const r = new JobRunner(
      store,
      [{ kind: 'wake', handle: async (job) => void ran.push(job.payload as string) }],
      clock,
      ids,
      doorbell,
      silent,
      { pollMs: NEVER_POLLS_MS },
    );
    // Asleep until this one, far away.
    await store.schedule({ kind: 'wake', payload: 'far', runAt: new Date(Date.now() + NEVER_POLLS_MS) });
    try {
      const looked = store.looks;
      r.start();
      await eventually(() => store.looks > looked, "the runner's first look");
      const runAt = new Date(Date.now() + 300);
      await database.transaction(() => inProcess.schedule({ kind: 'wake', payload: 'soon', runAt }));
      await eventually(() => ran.length === 1, 'the job scheduled in-process to run');
      expect(Date.now()).toBeGreaterThanOrEqual(runAt.getTime());
    } finally {
      await r.stop();
    }
    expect(ran).toEqual(['soon']);
  });

  /**
   * A runner that only a doorbell wakes, and its LISTEN connection; both are stopped when `use` ends, however it ends.
   * `notified` counts the notifications that reached the doorbell (a ring for a lost connection carries no payload).
   */
  async function listeningRunner(
    use: (r: { seen: () => number; notified: () => number; notifications: PostgresNotifications }) => Promise<void>,
  ): Promise<void> {
    let seen = 0;
    let notified = 0;
    const doorbell = new Doorbell();
    const bell = {
      ring: (payload?: string) => {
        if (payload !== undefined) notified++;
        doorbell.ring();
      },
    };
    const notifications = new PostgresNotifications(database, { [JOBS_CHANNEL]: bell }, silent);
    const r = new JobRunner(store, [{ kind: 'wake', handle: async () => void seen++ }], clock, ids, doorbell, silent, {
      pollMs: NEVER_POLLS_MS,
    });
    try {
      expect(await notifications.start()).toBe(true);
      const looked = store.looks;
      r.start();
      await eventually(() => store.looks > looked, "the runner's first look");
      await use({ seen: () => seen, notified: () => notified, notifications });
    } finally {
      await r.stop();
      await notifications.stop();
    }
  }

  /** Ends the LISTEN connection from the server side, as a restart or a network cut would, and waits until the loss is noticed. */
  async function loseListenConnection(notifications: PostgresNotifications): Promise<void> {
    const [killed] = await database.query<{ n: number }>(
      `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %'`,
    );
    expect(killed.n).toBe(1);
    await eventually(() => !notifications.delivering, 'the loss of the LISTEN connection to be noticed');
  }

  onRealServer('is woken by NOTIFY when another session schedules a job due now', async () => {
    await listeningRunner(async ({ seen, notified }) => {
      await store.schedule({ kind: 'wake', payload: null, runAt: new Date() });
      await eventually(() => notified() === 1, 'the notification');
      await eventually(() => seen() === 1, 'the notified job to run');
    });
  });

  onRealServer(
    'is woken by the NOTIFY another process sends after scheduling a job due later, and runs it at its time',
    async () => {
      // A store like the api's beside apps/worker: no runner of its own, so it notifies after its commit.
      const otherProcess = new PostgresJobStore(database, new JobsNotifier(database, silent));
      await listeningRunner(async ({ seen, notified }) => {
        const runAt = new Date(Date.now() + 700);
        await database.transaction(() => otherProcess.schedule({ kind: 'wake', payload: null, runAt }));
        await eventually(() => notified() === 1, 'the notification');
        expect(seen()).toBe(0);
        await eventually(() => seen() === 1, 'the job to run at its time');
        expect(Date.now()).toBeGreaterThanOrEqual(runAt.getTime());
      });
    },
  );

  onRealServer('listens again after losing its LISTEN connection', async () => {
    await listeningRunner(async ({ seen, notified, notifications }) => {
      await loseListenConnection(notifications);
      await eventually(() => notifications.delivering, 'LISTEN on a new connection');
      await store.schedule({ kind: 'wake', payload: null, runAt: new Date() });
      await eventually(() => notified() === 1, 'the notification on the new connection');
      await eventually(() => seen() === 1, 'the notified job to run');
    });
  });

  onRealServer('runs a job scheduled while its LISTEN connection was down, once it listens again', async () => {
    await listeningRunner(async ({ seen, notifications }) => {
      const looked = store.looks;
      await loseListenConnection(notifications);
      // The loss rings the doorbell; after that look, only another ring wakes the runner for this job.
      await eventually(() => store.looks > looked, 'the look the loss rang for');
      await store.schedule({ kind: 'wake', payload: null, runAt: new Date() });
      await eventually(() => seen() === 1, 'the job scheduled during the outage to run');
      expect(notifications.delivering).toBe(true);
    });
  });

  onRealServer('with several runners at once, runs every job exactly once', async () => {
    const runs = new Map<number, number>();
    const handler: JobHandler = {
      kind: 'count',
      handle: async (job: ClaimedJob) => {
        runs.set(job.payload as number, (runs.get(job.payload as number) ?? 0) + 1);
        await new Promise((res) => setTimeout(res, 2));
      },
    };
    for (let i = 0; i < 500; i += 50) {
      await database.transaction(async () => {
        for (let k = i; k < i + 50; k++) await store.schedule({ kind: 'count', payload: k, runAt: new Date() });
      });
    }
    const runners = Array.from({ length: 4 }, () => runner([handler], { concurrency: 8 }));
    try {
      runners.forEach((r) => r.start());
      await eventually(async () => (await rows()).length === 0, 'every job to run');
    } finally {
      await Promise.all(runners.map((r) => r.stop()));
    }
    expect(runs.size).toBe(500);
    expect([...runs.values()].every((n) => n === 1)).toBe(true);
  });
});
