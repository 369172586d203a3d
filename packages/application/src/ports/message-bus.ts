/**
 * The bus carries events that already committed through the outbox. Delivery is at-least-once:
 * handlers must be idempotent by `id`.
 */
export interface BusMessage {
  /** Unique event id; consumers de-duplicate on it. */
  readonly id: string;
  /** Routing key, e.g. `call.ended`, `webhook.delivery.due`. */
  readonly topic: string;
  readonly payload: unknown;
  /** ISO 8601 time the event was raised. */
  readonly occurredAt: string;
}

export type BusHandler = (message: BusMessage) => Promise<void>;

export interface SubscriptionOptions {
  /** Durable consumer name; one queue per (consumer, topic pattern). */
  readonly consumer: string;
  /** How many times a failing message is retried before it is dead-lettered. */
  readonly maxRetries?: number;
  /** Delay before a retry, in milliseconds. */
  readonly retryDelayMs?: number;
  /** Messages handled at once by this process. */
  readonly prefetch?: number;
  /**
   * A consumer of one process only (a per-instance name, e.g. to feed that instance's live
   * streams): its queues go away with it instead of outliving it, and messages published while
   * it is gone are not kept for it.
   */
  readonly transient?: boolean;
}

export interface MessageBus {
  /** Resolves only once every message is accepted by the bus (publisher confirms on RabbitMQ). */
  publish(messages: readonly BusMessage[]): Promise<void>;
  /**
   * Offered by a bus whose queues do not outlive the process (the in-process bus): publishes like
   * `publish`, and `settled` resolves once every consumer is done with its copy (handled or
   * dead-lettered). The outbox relay uses it to keep such events "unsettled" until then, so that
   * events a killed process was still holding are published again.
   */
  publishSettled?(messages: readonly BusMessage[]): Promise<{ readonly settled: Promise<void> }>;
  /** `topicPattern` uses AMQP topic syntax (`call.*`, `#`). */
  subscribe(topicPattern: string, handler: BusHandler, options: SubscriptionOptions): Promise<void>;
  close(): Promise<void>;
}
