import { CryptoIds, Doorbell, OutboxRelay, type BusMessage } from '@voiceplane/application';
import { InProcessMessageBus } from '@voiceplane/adapter-local-bus';
import { Database, PostgresUnpublishedEvents, TypeormOutbox } from '@voiceplane/adapter-typeorm';
import { createTestDatabase, eventually, TestDatabase } from '@voiceplane/test-env';

/**
 * Single-process mode keeps bus messages in memory. An event the relay had handed to an in-process
 * consumer when the process died must not be lost (issue 32): it stays "unsettled" until its
 * consumers are done, and a relay publishes again what stays unsettled too long.
 */
const clock = { now: () => new Date() };
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

let db: TestDatabase;
let database: Database;
beforeAll(async () => {
  db = await createTestDatabase();
  database = new Database(db.dataSource);
});
afterAll(async () => db.close());

const waitFor = (condition: () => Promise<boolean> | boolean, what: string) => eventually(condition, what);

it('an event whose consumer had not finished when the process died is delivered after the restart', async () => {
  const [eventId] = await database.transaction(() =>
    new TypeormOutbox(database, new CryptoIds(), clock).add([{ topic: 'call.ended', payload: { call_id: 1 } }]),
  );

  // The first "process": a consumer that is still working when the process dies.
  const first = database;
  const firstBus = new InProcessMessageBus();
  let release!: () => void;
  const stuck = new Promise<void>((resolve) => (release = resolve));
  const seenByFirst: string[] = [];
  await firstBus.subscribe(
    'call.#',
    async (m: BusMessage) => {
      seenByFirst.push(m.id);
      await stuck;
    },
    { consumer: 'automation-call-ended', maxRetries: 0 },
  );
  const firstRelay = new OutboxRelay(
    first,
    new PostgresUnpublishedEvents(first),
    firstBus,
    clock,
    new Doorbell(),
    silent,
    { pollMs: 50 },
  );
  firstRelay.start();
  await waitFor(() => seenByFirst.includes(eventId), 'the first consumer to receive the event');
  await firstRelay.stop();

  // SIGKILL: nothing of the first process runs any more; what it held in memory is gone. The event
  // was published, but its consumer never settled it.
  const [row] = await database.query<{ published: boolean; unsettled: boolean }>(
    `SELECT published_at IS NOT NULL AS published, unsettled_since IS NOT NULL AS unsettled FROM outbox_events WHERE id = $1`,
    [eventId],
  );
  expect(row).toEqual({ published: true, unsettled: true });

  // The restart: a new bus and relay on the same database deliver the event to the same consumer.
  const secondBus = new InProcessMessageBus();
  const seenBySecond: string[] = [];
  await secondBus.subscribe('call.#', async (m: BusMessage) => void seenBySecond.push(m.id), {
    consumer: 'automation-call-ended',
  });
  const secondRelay = new OutboxRelay(
    database,
    new PostgresUnpublishedEvents(database),
    secondBus,
    clock,
    new Doorbell(),
    silent,
    {
      pollMs: 50,
      unsettledAfterMs: 300,
      unsettledSweepMs: 100,
    },
  );
  secondRelay.start();
  try {
    await waitFor(() => seenBySecond.includes(eventId), 'the event to be delivered after the restart');
    await waitFor(
      async () =>
        (
          await database.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM outbox_events WHERE published_at IS NULL OR unsettled_since IS NOT NULL`,
          )
        )[0].n === 0,
      'the event to be settled',
    );
    expect(seenBySecond.filter((id) => id === eventId)).toHaveLength(1);
  } finally {
    await secondRelay.stop();
    await secondBus.close();
    release();
    await firstBus.close();
  }
});

it('the in-process bus settles a publish only once the consumer is done, and fails it if the bus closes first', async () => {
  const bus = new InProcessMessageBus();
  let finish!: () => void;
  const working = new Promise<void>((resolve) => (finish = resolve));
  let handling = 0;
  await bus.subscribe(
    'x.#',
    async () => {
      handling++;
      return working;
    },
    { consumer: 'settle-probe' },
  );
  let settled = false;
  const { settled: done } = await bus.publishSettled([
    { id: 'evt_1', topic: 'x.y', payload: {}, occurredAt: new Date().toISOString() },
  ]);
  const published = done.then(() => (settled = true));
  await eventually(() => handling === 1, 'the consumer to start on the message');
  expect(settled).toBe(false);
  finish();
  await published;
  expect(settled).toBe(true);

  const other = new InProcessMessageBus();
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let started = 0;
  await other.subscribe(
    'x.#',
    async () => {
      started++;
      return gate;
    },
    { consumer: 'settle-probe-2', prefetch: 1 },
  );
  const first = (
    await other.publishSettled([{ id: 'evt_2', topic: 'x.y', payload: {}, occurredAt: new Date().toISOString() }])
  ).settled;
  const queued = (
    await other.publishSettled([{ id: 'evt_3', topic: 'x.y', payload: {}, occurredAt: new Date().toISOString() }])
  ).settled;
  await eventually(() => started === 1, 'the first message to reach its consumer');
  const closing = other.close();
  open();
  await closing;
  await expect(first).resolves.toBeUndefined();
  await expect(queued).rejects.toThrow('closed before a consumer handled');
});
