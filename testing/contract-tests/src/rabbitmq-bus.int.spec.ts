import { randomBytes } from 'node:crypto';
import { BusMessage } from '@voiceplane/application';
import {
  BusLogger,
  deleteBusTopology,
  RabbitMqMessageBus,
  RabbitMqMessageBusOptions,
} from '@voiceplane/adapter-rabbitmq';
import { amqpUrl, describeWithAmqp, TcpLink } from '@voiceplane/test-env';
import { eventually, message, MESSAGE_BUS_SUITE_CONSUMERS, messageBusContract, sleep } from './message-bus.contract';

// Unique names per run, so parallel runs on one broker never share an exchange or a queue.
const run = randomBytes(4).toString('hex');
const exchange = `vp-test-${run}.events`;
const queuePrefix = `vp-test-${run}`;
const OUTAGE_CONSUMERS = ['outage-relay', 'outage-wait', 'outage-timeout', 'outage-in-flight'] as const;
// Jest applies no per-project testTimeout, and reconnecting with backoff takes seconds.
const OUTAGE_TEST_TIMEOUT_MS = 60_000;

describeWithAmqp('RabbitMqMessageBus', () => {
  afterAll(async () => {
    await deleteBusTopology({
      url: amqpUrl,
      exchange,
      queuePrefix,
      consumers: [...Object.values(MESSAGE_BUS_SUITE_CONSUMERS), ...OUTAGE_CONSUMERS],
    });
  });

  messageBusContract('RabbitMQ', () => new RabbitMqMessageBus({ url: amqpUrl, exchange, queuePrefix }));

  describe('when the connection to the broker drops', () => {
    let link: TcpLink;
    let log: RecordingLogger;
    const buses: RabbitMqMessageBus[] = [];
    const busThroughLink = (options: Partial<RabbitMqMessageBusOptions> = {}): RabbitMqMessageBus => {
      const bus = new RabbitMqMessageBus({
        url: link.through(amqpUrl),
        exchange,
        queuePrefix,
        logger: log,
        ...options,
      });
      buses.push(bus);
      return bus;
    };
    /** Until the bus has seen the connection go, a publish may still race onto the dying channel. */
    const outageNoticed = (since: number) =>
      eventually(() => log.count('lost the RabbitMQ connection') > since, 'the bus to notice the outage');

    beforeEach(async () => {
      const broker = new URL(amqpUrl);
      link = await TcpLink.open({ host: broker.hostname, port: Number(broker.port || 5672) });
      log = new RecordingLogger();
    });

    afterEach(async () => {
      await Promise.all(buses.splice(0).map((bus) => bus.close()));
      await link.close();
    });

    it(
      'delivers every message at least once when published the way the outbox relay does',
      async () => {
        const publisher = busThroughLink({ operationTimeoutMs: 1_000 });
        const consumer = busThroughLink();
        const deliveries = new Map<string, number>();
        await consumer.subscribe(
          'outage-relay.#',
          async (m) => void deliveries.set(m.id, (deliveries.get(m.id) ?? 0) + 1),
          {
            consumer: 'outage-relay',
            prefetch: 5,
          },
        );
        const sent: BusMessage[] = [];
        let rejections = 0;
        let restored: Promise<void> = Promise.resolve();

        for (let batch = 0; batch < 12; batch++) {
          const messages = Array.from({ length: 5 }, (_, i) => message('outage-relay.tick', { batch, i }));
          sent.push(...messages);
          let attempt = publisher.publish(messages);
          if (batch === 4) {
            // Cut both connections while this batch's confirms are outstanding, and keep the
            // broker unreachable for a while so reconnection has to back off.
            expect(link.sever()).toBe(2);
            link.refuse();
            restored = sleep(1_500).then(() => link.accept());
          }
          // Like the relay: a rejected batch is published again, never marked as sent.
          for (;;) {
            try {
              await attempt;
              break;
            } catch {
              rejections++;
              await sleep(100);
              attempt = publisher.publish(messages);
            }
          }
        }
        await restored;

        await eventually(() => sent.every((m) => deliveries.has(m.id)), 'every message to be delivered', 30_000);
        expect(sent).toHaveLength(60);
        expect(link.connectionsAccepted).toBeGreaterThanOrEqual(4);
        expect(log.count('lost the RabbitMQ connection')).toBe(2);
        expect(log.count('could not connect to RabbitMQ')).toBeGreaterThan(0);
        // The batch in flight at the cut cannot have been confirmed on the dead connection.
        expect(rejections).toBeGreaterThan(0);
      },
      OUTAGE_TEST_TIMEOUT_MS,
    );

    it(
      'holds a publish during an outage and resolves it once the broker confirms after reconnecting',
      async () => {
        const bus = busThroughLink();
        const inbox: BusMessage[] = [];
        await bus.subscribe('outage-wait.#', async (m) => void inbox.push(m), { consumer: 'outage-wait' });
        await bus.publish([message('outage-wait.before')]);
        await eventually(() => inbox.length === 1, 'the first message');

        link.sever();
        link.refuse();
        await outageNoticed(0);
        const held = message('outage-wait.during');
        let outcome = 'pending';
        const publishing = bus.publish([held]).then(
          () => void (outcome = 'resolved'),
          (error: Error) => void (outcome = `rejected: ${error.message}`),
        );
        await sleep(800);
        expect(outcome).toBe('pending');
        link.accept();
        await publishing;

        expect(outcome).toBe('resolved');
        // At-least-once: the message from before the cut may come again if its ack was lost with
        // the connection, so look for the held one rather than counting.
        await eventually(() => inbox.some((m) => m.id === held.id), 'the held message');
        expect(inbox.find((m) => m.id === held.id)).toEqual(held);
      },
      OUTAGE_TEST_TIMEOUT_MS,
    );

    it(
      'rejects a publish when the outage outlasts operationTimeoutMs, so the caller retries it',
      async () => {
        const bus = busThroughLink({ operationTimeoutMs: 300 });
        const inbox: BusMessage[] = [];
        await bus.subscribe('outage-timeout.#', async (m) => void inbox.push(m), { consumer: 'outage-timeout' });

        link.sever();
        link.refuse();
        await outageNoticed(0);
        const unsent = message('outage-timeout.event');
        await expect(bus.publish([unsent])).rejects.toThrow(/no connection to RabbitMQ within 300 ms/);
        link.accept();
        await eventually(() => log.count('connected to RabbitMQ') === 2, 'the bus to reconnect');
        await bus.publish([unsent]);

        await eventually(() => inbox.length >= 1, 'the retried message');
        await sleep(400);
        expect(inbox).toEqual([unsent]);
      },
      OUTAGE_TEST_TIMEOUT_MS,
    );

    it(
      'redelivers a message whose handler was running when the connection dropped',
      async () => {
        const bus = busThroughLink();
        const runs: string[] = [];
        let release!: () => void;
        const firstRunMayFinish = new Promise<void>((resolve) => (release = resolve));
        await bus.subscribe(
          'outage-in-flight.#',
          async (m) => {
            runs.push(m.id);
            if (runs.length === 1) await firstRunMayFinish;
          },
          { consumer: 'outage-in-flight' },
        );
        const sent = message('outage-in-flight.job');
        await bus.publish([sent]);
        await eventually(() => runs.length === 1, 'the handler to start');

        link.sever();
        await outageNoticed(0);
        // Its ack has nowhere to go: the channel that delivered the message is gone.
        release();

        await eventually(() => runs.length === 2, 'the redelivery after reconnecting');
        expect(runs).toEqual([sent.id, sent.id]);
        expect(await bus.deadLetters('outage-in-flight')).toEqual([]);
      },
      OUTAGE_TEST_TIMEOUT_MS,
    );
  });
});

class RecordingLogger implements BusLogger {
  readonly messages: string[] = [];
  info(_details: Record<string, unknown>, message: string): void {
    this.messages.push(message);
  }
  warn(_details: Record<string, unknown>, message: string): void {
    this.messages.push(message);
  }
  error(_details: Record<string, unknown>, message: string): void {
    this.messages.push(message);
  }
  count(message: string): number {
    return this.messages.filter((m) => m === message).length;
  }
}
