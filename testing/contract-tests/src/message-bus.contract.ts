import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { BusHandler, BusMessage, MessageBus } from '@voiceplane/application';

/** Both buses can show what they dead-lettered; the contract checks it through this. */
export interface InspectableMessageBus extends MessageBus {
  deadLetters(consumer: string): Promise<readonly { message: BusMessage; attempts: number; lastError: string }[]>;
}

/** Every consumer name the contract subscribes, so a suite on a real broker can delete their queues. */
export const MESSAGE_BUS_SUITE_CONSUMERS = {
  roundTrip: 'round-trip',
  routeOneWord: 'route-one-word',
  routeAnyDepth: 'route-any-depth',
  routeHashInside: 'route-hash-inside',
  routeStarInside: 'route-star-inside',
  fanOutA: 'fan-out-a',
  fanOutB: 'fan-out-b',
  retry: 'retry-then-succeed',
  deadLetter: 'dead-letter',
  deadLetterAtOnce: 'dead-letter-at-once',
  durable: 'durable',
  durableRetry: 'durable-retry',
  prefetch: 'prefetch',
  gracefulClose: 'graceful-close',
  misuse: 'misuse',
  context: 'publisher-context',
} as const;

const C = MESSAGE_BUS_SUITE_CONSUMERS;
/** How long to keep listening after the expected deliveries, to catch extra or duplicate ones. */
const QUIET_MS = 400;
const TEST_TIMEOUT_MS = 30_000;

/**
 * The MessageBus port's behaviour, run against every implementation. `makeBus` returns a new bus
 * on the same broker each call (same exchange and queues), so one test can close a bus and open
 * another to see what survives.
 */
export function messageBusContract(name: string, makeBus: () => InspectableMessageBus): void {
  describe(`MessageBus contract: ${name}`, () => {
    const opened: InspectableMessageBus[] = [];
    const open = (): InspectableMessageBus => {
      const bus = makeBus();
      opened.push(bus);
      return bus;
    };

    afterEach(async () => {
      await Promise.all(opened.splice(0).map((bus) => bus.close()));
    });

    it(
      'delivers each published message to a subscriber whole and exactly once',
      async () => {
        const bus = open();
        const inbox = new Inbox();
        await bus.subscribe('round-trip.call.ended', inbox.handler, { consumer: C.roundTrip });
        const sent = [
          message('round-trip.call.ended', { callId: 'c-1', seconds: 42, tags: ['vip'], nested: { ok: true } }),
          message('round-trip.call.ended', null),
          message('round-trip.call.ended', 'plain text'),
        ];

        await bus.publish(sent);

        await eventually(() => inbox.received.length >= 3, '3 deliveries');
        await sleep(QUIET_MS);
        expect(byId(inbox.received)).toEqual(byId(sent));
      },
      TEST_TIMEOUT_MS,
    );

    it(
      "runs handlers outside the publisher's async context (a transaction must not leak into consumers)",
      async () => {
        const bus = open();
        const transaction = new AsyncLocalStorage<string>();
        const seen: Array<string | undefined> = [];
        await bus.subscribe('context.check', async () => void seen.push(transaction.getStore()), {
          consumer: C.context,
        });
        // Once idle, and again with the consumer already busy: a publish must not start or feed
        // the consumer's work from inside its own context.
        for (let round = 1; round <= 2; round++) {
          await transaction.run('publisher transaction', () => bus.publish([message('context.check', null)]));
          await eventually(() => seen.length >= round, `delivery ${round}`);
          await sleep(50);
        }
        await transaction.run('publisher transaction', () =>
          bus.publish([message('context.check', null), message('context.check', null)]),
        );
        await eventually(() => seen.length >= 4, 'the last deliveries');
        expect(seen).toEqual([undefined, undefined, undefined, undefined]);
      },
      TEST_TIMEOUT_MS,
    );

    it(
      'routes by AMQP topic pattern: * is one word, # is zero or more',
      async () => {
        const bus = open();
        const oneWord = new Inbox();
        const anyDepth = new Inbox();
        const hashInside = new Inbox();
        const starInside = new Inbox();
        await bus.subscribe('routing.call.*', oneWord.handler, { consumer: C.routeOneWord });
        await bus.subscribe('routing.#', anyDepth.handler, { consumer: C.routeAnyDepth });
        await bus.subscribe('routing.#.ended', hashInside.handler, { consumer: C.routeHashInside });
        await bus.subscribe('routing.*.due', starInside.handler, { consumer: C.routeStarInside });

        await bus.publish(
          [
            'routing.call.ended',
            'routing.call.started',
            'routing.call.ended.late',
            'routing.webhook.due',
            'routing',
            'elsewhere.call.ended',
          ].map((topic) => message(topic)),
        );

        await eventually(
          () =>
            oneWord.received.length >= 2 &&
            anyDepth.received.length >= 5 &&
            hashInside.received.length >= 1 &&
            starInside.received.length >= 1,
          'every pattern to receive its messages',
        );
        await sleep(QUIET_MS);
        expect(oneWord.topics()).toEqual(['routing.call.ended', 'routing.call.started']);
        expect(anyDepth.topics()).toEqual([
          'routing',
          'routing.call.ended',
          'routing.call.ended.late',
          'routing.call.started',
          'routing.webhook.due',
        ]);
        expect(hashInside.topics()).toEqual(['routing.call.ended']);
        expect(starInside.topics()).toEqual(['routing.webhook.due']);
      },
      TEST_TIMEOUT_MS,
    );

    it(
      'gives every consumer name each message once, however many buses subscribe under that name',
      async () => {
        const first = open();
        const second = open();
        const aOnFirst = new Inbox();
        const aOnSecond = new Inbox();
        const b = new Inbox();
        await first.subscribe('fan-out.#', aOnFirst.handler, { consumer: C.fanOutA });
        await second.subscribe('fan-out.#', aOnSecond.handler, { consumer: C.fanOutA });
        await first.subscribe('fan-out.#', b.handler, { consumer: C.fanOutB });
        const sent = Array.from({ length: 6 }, (_, i) => message('fan-out.event', { i }));

        await first.publish(sent);

        await eventually(
          () => aOnFirst.received.length + aOnSecond.received.length >= 6 && b.received.length >= 6,
          'both consumers',
        );
        await sleep(QUIET_MS);
        expect(ids([...aOnFirst.received, ...aOnSecond.received])).toEqual(ids(sent));
        expect(ids(b.received)).toEqual(ids(sent));
      },
      TEST_TIMEOUT_MS,
    );

    it(
      'retries a failing message after the retry delay until the handler succeeds',
      async () => {
        const bus = open();
        const attempts = new Map<string, number[]>();
        await bus.subscribe(
          'retry.job',
          async (m) => {
            const times = [...(attempts.get(m.id) ?? []), Date.now()];
            attempts.set(m.id, times);
            if (times.length < 3) throw new Error(`transient failure ${times.length}`);
          },
          { consumer: C.retry, maxRetries: 3, retryDelayMs: 200 },
        );
        const sent = [message('retry.job'), message('retry.job')];

        await bus.publish(sent);

        await eventually(() => sent.every((m) => attempts.get(m.id)?.length === 3), 'three attempts per message');
        await sleep(QUIET_MS);
        for (const m of sent) {
          const times = attempts.get(m.id)!;
          expect(times).toHaveLength(3);
          // Timer and broker TTL granularity allow a little slack, never a retry without delay.
          expect(times[1] - times[0]).toBeGreaterThanOrEqual(150);
          expect(times[2] - times[1]).toBeGreaterThanOrEqual(150);
        }
        expect(await bus.deadLetters(C.retry)).toEqual([]);
      },
      TEST_TIMEOUT_MS,
    );

    it(
      'dead-letters a message after maxRetries retries without holding up the others',
      async () => {
        const bus = open();
        const calls = new Map<string, number>();
        const poison = message('dead-letter.job', { poison: true });
        const healthy = message('dead-letter.job', { poison: false });
        const count = (m: BusMessage) => calls.set(m.id, (calls.get(m.id) ?? 0) + 1);
        await bus.subscribe(
          'dead-letter.job',
          async (m) => {
            count(m);
            if ((m.payload as { poison: boolean }).poison) throw new Error(`cannot process ${m.id}`);
          },
          { consumer: C.deadLetter, maxRetries: 2, retryDelayMs: 20 },
        );
        let atOnceCalls = 0;
        await bus.subscribe(
          'dead-letter.job',
          async () => {
            atOnceCalls++;
            throw new Error('never works');
          },
          { consumer: C.deadLetterAtOnce, maxRetries: 0, retryDelayMs: 20 },
        );

        await bus.publish([poison, healthy]);

        await eventually(
          async () => (await bus.deadLetters(C.deadLetter)).length >= 1,
          'the poison message to be dead-lettered',
        );
        await eventually(
          async () => (await bus.deadLetters(C.deadLetterAtOnce)).length >= 2,
          'both messages dead-lettered at once',
        );
        await sleep(QUIET_MS);
        expect(calls.get(poison.id)).toBe(3);
        expect(calls.get(healthy.id)).toBe(1);
        const dead = await bus.deadLetters(C.deadLetter);
        expect(dead).toHaveLength(1);
        expect(dead[0].message).toEqual(poison);
        expect(dead[0].attempts).toBe(3);
        expect(dead[0].lastError).toBe(`cannot process ${poison.id}`);
        expect(atOnceCalls).toBe(2);
        const deadAtOnce = await bus.deadLetters(C.deadLetterAtOnce);
        expect(ids(deadAtOnce.map((d) => d.message))).toEqual(ids([poison, healthy]));
        expect(deadAtOnce.map((d) => d.attempts)).toEqual([1, 1]);
      },
      TEST_TIMEOUT_MS,
    );

    it(
      'keeps messages published while the consumer is away and delivers them when it subscribes again',
      async () => {
        const before = new Inbox();
        const first = open();
        await first.subscribe('durable.#', before.handler, { consumer: C.durable });
        await first.close();

        const publisher = open();
        const sent = [message('durable.a'), message('durable.b.c'), message('durable.a')];
        await publisher.publish(sent);
        await publisher.close();

        const after = new Inbox();
        const reopened = open();
        await reopened.subscribe('durable.#', after.handler, { consumer: C.durable });

        await eventually(() => after.received.length >= 3, 'the backlog to arrive');
        await sleep(QUIET_MS);
        expect(byId(after.received)).toEqual(byId(sent));
        expect(before.received).toEqual([]);
      },
      TEST_TIMEOUT_MS,
    );

    it(
      'keeps a message that was waiting for its retry when the bus closed',
      async () => {
        const first = open();
        let failures = 0;
        await first.subscribe(
          'durable-retry.job',
          async () => {
            failures++;
            throw new Error('fails before the restart');
          },
          { consumer: C.durableRetry, maxRetries: 5, retryDelayMs: 300 },
        );
        const sent = message('durable-retry.job');
        await first.publish([sent]);
        await eventually(() => failures === 1, 'the first failure');
        await first.close();

        const after = new Inbox();
        const reopened = open();
        await reopened.subscribe('durable-retry.job', after.handler, {
          consumer: C.durableRetry,
          maxRetries: 5,
          retryDelayMs: 300,
        });

        await eventually(() => after.received.length >= 1, 'the retried message');
        await sleep(QUIET_MS);
        expect(after.received).toEqual([sent]);
        expect(failures).toBe(1);
      },
      TEST_TIMEOUT_MS,
    );

    it(
      'runs at most `prefetch` handlers of one subscription at a time',
      async () => {
        const bus = open();
        let active = 0;
        let mostActive = 0;
        let done = 0;
        const gate = new Gate();
        await bus.subscribe(
          'prefetch.job',
          async () => {
            active++;
            mostActive = Math.max(mostActive, active);
            await gate.passed;
            active--;
            done++;
          },
          { consumer: C.prefetch, prefetch: 2 },
        );

        await bus.publish(Array.from({ length: 6 }, (_, i) => message('prefetch.job', { i })));

        await eventually(() => active === 2, 'two handlers running');
        await sleep(QUIET_MS);
        expect(active).toBe(2);
        gate.open();
        await eventually(() => done === 6, 'all six handled');
        expect(mostActive).toBe(2);
      },
      TEST_TIMEOUT_MS,
    );

    it(
      'lets running handlers finish on close, and what they settled is not delivered again',
      async () => {
        const bus = open();
        let started = 0;
        let finished = 0;
        await bus.subscribe(
          'graceful-close.job',
          async () => {
            started++;
            await sleep(300);
            finished++;
          },
          { consumer: C.gracefulClose },
        );
        await bus.publish([message('graceful-close.job')]);
        await eventually(() => started === 1, 'the handler to start');

        await bus.close();

        expect(finished).toBe(1);
        const redelivered = new Inbox();
        await open().subscribe('graceful-close.job', redelivered.handler, { consumer: C.gracefulClose });
        await sleep(QUIET_MS * 2);
        expect(redelivered.received).toEqual([]);
      },
      TEST_TIMEOUT_MS,
    );

    it(
      'refuses a second subscription under the same consumer name on one bus, and any use once closed',
      async () => {
        const bus = open();
        const inbox = new Inbox();
        await bus.subscribe('misuse.#', inbox.handler, { consumer: C.misuse });
        await expect(bus.subscribe('misuse.other', inbox.handler, { consumer: C.misuse })).rejects.toThrow(
          /already subscribed/,
        );
        await bus.close();
        await expect(bus.publish([message('misuse.late')])).rejects.toThrow(/closed/);
        await expect(bus.subscribe('misuse.#', inbox.handler, { consumer: 'misuse-late' })).rejects.toThrow(/closed/);
      },
      TEST_TIMEOUT_MS,
    );
  });
}

export function message(topic: string, payload: unknown = { at: topic }): BusMessage {
  return { id: randomUUID(), topic, payload, occurredAt: '2026-11-22T07:30:00.000Z' };
}

export class Inbox {
  readonly received: BusMessage[] = [];
  readonly handler: BusHandler = async (m) => {
    this.received.push(m);
  };

  topics(): string[] {
    return this.received.map((m) => m.topic).sort();
  }
}

/**
 * Polls until `check` holds; fails the test with `what` when `timeoutMs` passes first. The ceiling
 * only bounds a failure, so it is generous: a busy machine delivers late, not never.
 */
export async function eventually(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(20);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

class Gate {
  open!: () => void;
  readonly passed = new Promise<void>((resolve) => {
    this.open = resolve;
  });
}

function ids(messages: readonly BusMessage[]): string[] {
  return messages.map((m) => m.id).sort();
}

function byId(messages: readonly BusMessage[]): BusMessage[] {
  return [...messages].sort((a, b) => a.id.localeCompare(b.id));
}
