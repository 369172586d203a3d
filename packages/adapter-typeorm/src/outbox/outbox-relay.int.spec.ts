import { BusMessage, CryptoIds, Doorbell, MessageBus, OutboxRelay } from '@voiceplane/application';
import { createTestDatabase, eventually, TestDatabase, WAIT_CEILING_MS } from '@voiceplane/test-env';
import { Database } from '../database';
import { TypeormOutbox } from '../repositories/outbox-writer';
import { PostgresProcessedEvents } from './processed-events';
import { PostgresUnpublishedEvents } from './unpublished-events';
import { EventRetention } from './event-retention';
import { OUTBOX_CHANNEL, PostgresNotifications } from './notifications';
import { OutboxNotifier } from './outbox-notifier';

const clock = { now: () => new Date() };
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
/** Several sessions at once need a real server: embedded PGlite is one session behind a socket. */
const onRealServer = process.env.DATABASE_URL ? it : it.skip;

/** A bus that records what it was asked to publish, and can be made to refuse. */
class RecordingBus implements MessageBus {
  readonly batches: BusMessage[][] = [];
  refusing = false;
  refusals = 0;
  delayMs = 0;
  async publish(messages: readonly BusMessage[]): Promise<void> {
    if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs));
    if (this.refusing) {
      this.refusals++;
      throw new Error('broker unavailable');
    }
    this.batches.push([...messages]);
  }
  async subscribe(): Promise<void> {}
  async close(): Promise<void> {}
  published(): BusMessage[] {
    return this.batches.flat();
  }
}

let db: TestDatabase;
let database: Database;
let outbox: TypeormOutbox;

beforeAll(async () => {
  db = await createTestDatabase();
  database = new Database(db.dataSource);
  outbox = new TypeormOutbox(database, new CryptoIds(), clock);
});
afterAll(async () => db.close());
beforeEach(async () => {
  await database.query('DELETE FROM outbox_events');
});

async function raise(count: number, topic = 'test.event'): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 50) {
    const n = Math.min(50, count - i);
    ids.push(
      ...(await database.transaction(() =>
        outbox.add(Array.from({ length: n }, (_, k) => ({ topic, payload: { n: i + k } }))),
      )),
    );
  }
  return ids;
}

/** The unpublished events, counting the relay's looks, so a test can wait until the relay has looked and is idle. */
class CountingUnpublishedEvents extends PostgresUnpublishedEvents {
  looks = 0;

  override async claimBatch(
    ...args: Parameters<PostgresUnpublishedEvents['claimBatch']>
  ): ReturnType<PostgresUnpublishedEvents['claimBatch']> {
    const claimed = await super.claimBatch(...args);
    this.looks++;
    return claimed;
  }
}

function relay(bus: MessageBus, batchSize = 100, doorbell = new Doorbell()) {
  return new OutboxRelay(database, new PostgresUnpublishedEvents(database), bus, clock, doorbell, silent, {
    batchSize,
    pollMs: 50,
  });
}

async function unpublished(): Promise<number> {
  const [row] = await database.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM outbox_events WHERE published_at IS NULL',
  );
  return row.n;
}

describe('OutboxRelay', () => {
  it('publishes committed events oldest first, whole, and marks them published', async () => {
    const ids = await raise(250);
    const bus = new RecordingBus();
    const r = relay(bus);
    expect(await r.relayOnce()).toBe(100);
    expect(await r.relayOnce()).toBe(100);
    expect(await r.relayOnce()).toBe(50);
    expect(await r.relayOnce()).toBe(0);
    expect(bus.published().map((m) => m.id)).toEqual(ids);
    expect(bus.published()[7]).toEqual({
      id: ids[7],
      topic: 'test.event',
      payload: { n: 7 },
      occurredAt: expect.stringMatching(/Z$/),
    });
    expect(await unpublished()).toBe(0);
  });

  it('publishes each event with the time the application raised it', async () => {
    const raisedAt = new Date('2026-05-01T10:00:00.123Z');
    const stamped = new TypeormOutbox(database, new CryptoIds(), { now: () => raisedAt });
    const [id] = await database.transaction(() => stamped.add([{ topic: 'test.event', payload: {} }]));
    const bus = new RecordingBus();
    await relay(bus).relayOnce();
    expect(bus.published()).toEqual([expect.objectContaining({ id, occurredAt: '2026-05-01T10:00:00.123Z' })]);
  });

  it('never publishes an event whose transaction rolled back, nor one still uncommitted', async () => {
    const bus = new RecordingBus();
    if (process.env.DATABASE_URL) {
      // Another session must not see the row before its transaction commits. (On PGlite every
      // connection shares one session, so only a real server can show this.)
      let committing!: () => void;
      const inside = new Promise<void>((resolve) => (committing = resolve));
      // Registered here, outside the transaction's async context, so the relay does not join it.
      const relayedWhileOpen = inside.then(() => relay(bus).relayOnce());
      await database.transaction(async () => {
        await outbox.add([{ topic: 'test.open', payload: null }]);
        committing();
        expect(await relayedWhileOpen).toBe(0);
      });
    } else {
      await database.transaction(() => outbox.add([{ topic: 'test.open', payload: null }]));
    }
    await expect(
      database.transaction(async () => {
        await outbox.add([{ topic: 'test.rolled_back', payload: null }]);
        throw new Error('the state change failed');
      }),
    ).rejects.toThrow('the state change failed');
    await relay(bus).relayOnce();
    expect(bus.published().map((m) => m.topic)).toEqual(['test.open']);
  });

  it('leaves events unpublished while the bus refuses them, and publishes them once it accepts', async () => {
    const ids = await raise(30);
    const bus = new RecordingBus();
    bus.refusing = true;
    const r = relay(bus, 10);
    await expect(r.relayOnce()).rejects.toThrow('broker unavailable');
    expect(await unpublished()).toBe(30);

    try {
      r.start();
      await eventually(() => bus.refusals >= 3, 'the relay to try again while refused');
      expect(await unpublished()).toBe(30);
      bus.refusing = false;
      await eventually(async () => (await unpublished()) === 0, 'every event to be published');
    } finally {
      await r.stop();
    }
    expect(bus.published().map((m) => m.id)).toEqual(ids);
  });

  it('wakes on the doorbell rather than waiting for its next poll', async () => {
    const bus = new RecordingBus();
    const doorbell = new Doorbell();
    const events = new CountingUnpublishedEvents(database);
    // Its poll is longer than any wait here: an event published at all was published because the doorbell rang.
    const r = new OutboxRelay(database, events, bus, clock, doorbell, silent, { pollMs: 10 * WAIT_CEILING_MS });
    try {
      r.start();
      await eventually(() => events.looks > 0, "the relay's first look");
      await raise(1);
      doorbell.ring();
      await eventually(() => bus.published().length === 1, 'the rung-for event to be published');
    } finally {
      await r.stop();
    }
  });

  /** A relay that only its doorbell wakes (its poll outlasts every wait here), counting its looks. */
  async function unpolledRelay(
    doorbell: Doorbell,
    use: (r: { bus: RecordingBus; events: CountingUnpublishedEvents }) => Promise<void>,
  ): Promise<void> {
    const bus = new RecordingBus();
    const events = new CountingUnpublishedEvents(database);
    const r = new OutboxRelay(database, events, bus, clock, doorbell, silent, { pollMs: 10 * WAIT_CEILING_MS });
    try {
      r.start();
      await eventually(() => events.looks > 0, "the relay's first look");
      await use({ bus, events });
    } finally {
      await r.stop();
    }
  }

  it('is rung by a writer of its own process once the writer commits, not before', async () => {
    const doorbell = new Doorbell();
    const notifier = new OutboxNotifier(database, silent);
    notifier.wakeAlso(doorbell);
    const writer = new TypeormOutbox(database, new CryptoIds(), clock, notifier);
    await unpolledRelay(doorbell, async ({ bus, events }) => {
      const looked = events.looks;
      await database.transaction(async () => {
        await writer.add([{ topic: 'test.event', payload: { n: 1 } }]);
        // Rung only after the commit: a look now would find nothing to publish.
        await new Promise((r) => setTimeout(r, 50));
        expect(events.looks).toBe(looked);
      });
      await eventually(() => bus.published().length === 1, 'the committed event to be published');
    });
  });

  onRealServer(
    'is woken by the NOTIFY a writer without a relay of its own (another process) sends after its commit',
    async () => {
      const doorbell = new Doorbell();
      const notifications = new PostgresNotifications(database, { [OUTBOX_CHANNEL]: doorbell }, silent);
      expect(await notifications.start()).toBe(true);
      const otherProcess = new TypeormOutbox(database, new CryptoIds(), clock, new OutboxNotifier(database, silent));
      try {
        await unpolledRelay(doorbell, async ({ bus }) => {
          await database.transaction(() => otherProcess.add([{ topic: 'test.event', payload: { n: 1 } }]));
          await eventually(() => bus.published().length === 1, 'the notified event to be published');
        });
      } finally {
        await notifications.stop();
      }
    },
  );

  onRealServer('with several relays at once, publishes every event exactly once', async () => {
    const ids = await raise(1_000);
    const bus = new RecordingBus();
    bus.delayMs = 5;
    const relays = Array.from({ length: 4 }, () => relay(bus, 25));
    try {
      relays.forEach((r) => r.start());
      await eventually(async () => (await unpublished()) === 0, 'every event to be published');
    } finally {
      await Promise.all(relays.map((r) => r.stop()));
    }
    const published = bus.published().map((m) => m.id);
    expect(published).toHaveLength(1_000);
    expect(new Set(published)).toEqual(new Set(ids));
    // Each relay's batches are in outbox order; batches ran side by side.
    for (const batch of bus.batches) {
      const positions = batch.map((m) => ids.indexOf(m.id));
      expect(positions).toEqual([...positions].sort((a, b) => a - b));
    }
    expect(bus.batches.length).toBeGreaterThanOrEqual(40);
  });
});

describe('PostgresProcessedEvents', () => {
  const recorded = async (consumer: string, eventId: string) =>
    (await database.query('SELECT 1 FROM processed_events WHERE consumer = $1 AND event_id = $2', [consumer, eventId]))
      .length === 1;

  it('records an event once per consumer', async () => {
    const processed = new PostgresProcessedEvents(database);
    expect(await recorded('a', 'evt_1')).toBe(false);
    expect(await processed.record('a', 'evt_1')).toBe(true);
    expect(await processed.record('a', 'evt_1')).toBe(false);
    expect(await processed.record('b', 'evt_1')).toBe(true);
    expect(await recorded('a', 'evt_1')).toBe(true);
  });

  it('forgets a record written in a transaction that rolled back', async () => {
    const processed = new PostgresProcessedEvents(database);
    await expect(
      database.transaction(async () => {
        await processed.record('c', 'evt_2');
        throw new Error('handler failed');
      }),
    ).rejects.toThrow('handler failed');
    expect(await recorded('c', 'evt_2')).toBe(false);
  });
});

describe('EventRetention', () => {
  it('sweeps published events and processed records older than the cutoff, nothing else', async () => {
    await raise(3);
    await database.query(
      `UPDATE outbox_events SET published_at = now() - interval '8 days', occurred_at = now() - interval '8 days' WHERE seq IN (SELECT seq FROM outbox_events ORDER BY seq LIMIT 2)`,
    );
    await database.query(
      `UPDATE outbox_events SET occurred_at = now() - interval '30 days' WHERE published_at IS NULL`,
    );
    await database.query(
      `INSERT INTO processed_events (consumer, event_id, processed_at) VALUES ('x', 'old', now() - interval '8 days'), ('x', 'new', now())`,
    );
    const swept = await new EventRetention(database).sweep(new Date(Date.now() - 7 * 86_400_000));
    expect(swept).toEqual({ outboxEvents: 2, processedEvents: 1 });
    expect(await unpublished()).toBe(1);
    expect(await database.query(`SELECT event_id FROM processed_events WHERE consumer = 'x'`)).toEqual([
      { event_id: 'new' },
    ]);
  });
});
