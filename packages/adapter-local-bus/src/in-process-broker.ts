import { BusMessage } from '@voiceplane/application';
import { topicMatches } from './topic-pattern';

/** A message its consumer gave up on after the last retry. */
export interface DeadLetter {
  readonly message: BusMessage;
  /** Failed handler runs: the first delivery plus every retry. */
  readonly attempts: number;
  readonly lastError: string;
}

/** Told when the consumer is done with one routed copy of a message. */
export interface Settlement {
  /** Handled, or given up on (dead-lettered): the consumer will not ask for it again. */
  settled(): void;
}

/** A message waiting in a consumer's queue, held as JSON exactly as a broker would hold it. */
export interface QueuedMessage {
  readonly body: string;
  readonly failedAttempts: number;
  /** Who waits for the consumer to be done with it (`InProcessMessageBus.publishSettled`); kept across retries. */
  readonly settlement?: Settlement;
}

interface ConsumerQueue {
  readonly patterns: Set<string>;
  readonly waiting: QueuedMessage[];
  readonly dead: DeadLetter[];
  readonly watchers: Set<() => void>;
}

/**
 * The queues of single-process mode, one per consumer name, bound to topic patterns. They outlive
 * any one bus, as durable queues outlive a connection: a consumer that is not attached keeps
 * accumulating messages and receives them when it subscribes again.
 */
export class InProcessBroker {
  private readonly queues = new Map<string, ConsumerQueue>();

  bind(consumer: string, pattern: string): void {
    this.queue(consumer).patterns.add(pattern);
  }

  /** Queues a copy for every consumer bound to the topic; `settlementFor` is asked once per copy. */
  route(topic: string, body: string, settlementFor?: () => Settlement): void {
    for (const queue of this.queues.values()) {
      if ([...queue.patterns].some((pattern) => topicMatches(pattern, topic))) {
        this.enqueue(queue, { body, failedAttempts: 0, settlement: settlementFor?.() });
      }
    }
  }

  requeue(consumer: string, message: QueuedMessage): void {
    this.enqueue(this.queue(consumer), message);
  }

  take(consumer: string): QueuedMessage | undefined {
    return this.queues.get(consumer)?.waiting.shift();
  }

  deadLetter(consumer: string, letter: DeadLetter): void {
    this.queue(consumer).dead.push(letter);
  }

  deadLetters(consumer: string): readonly DeadLetter[] {
    return [...(this.queues.get(consumer)?.dead ?? [])];
  }

  /** Calls `onMessage` whenever the consumer's queue receives a message; returns the unwatch. */
  watch(consumer: string, onMessage: () => void): () => void {
    const watchers = this.queue(consumer).watchers;
    watchers.add(onMessage);
    return () => watchers.delete(onMessage);
  }

  private enqueue(queue: ConsumerQueue, message: QueuedMessage): void {
    queue.waiting.push(message);
    for (const watcher of queue.watchers) watcher();
  }

  private queue(consumer: string): ConsumerQueue {
    let queue = this.queues.get(consumer);
    if (!queue) {
      queue = { patterns: new Set(), waiting: [], dead: [], watchers: new Set() };
      this.queues.set(consumer, queue);
    }
    return queue;
  }
}
