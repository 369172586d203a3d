import { AsyncResource } from 'node:async_hooks';
import { BusHandler, BusMessage, MessageBus, SubscriptionOptions } from '@voiceplane/application';
import { DeadLetter, InProcessBroker } from './in-process-broker';
import { LocalSubscription } from './local-subscription';
import { subscriptionPolicy } from '@voiceplane/application';

export interface InProcessMessageBusOptions {
  /** Share one broker between buses to keep queued messages across a close and reopen. */
  readonly broker?: InProcessBroker;
}

/** The bus of single-process mode: RabbitMQ's routing, retry and dead-letter semantics, in memory. */
export class InProcessMessageBus implements MessageBus {
  private readonly broker: InProcessBroker;
  private readonly subscriptions = new Map<string, LocalSubscription>();
  /** Copies `publishSettled` still waits for, and how to fail the wait when the bus closes. */
  private readonly unsettled = new Set<(error: Error) => void>();
  private closing?: Promise<void>;

  constructor(options: InProcessMessageBusOptions = {}) {
    this.broker = options.broker ?? new InProcessBroker();
  }

  async publish(messages: readonly BusMessage[]): Promise<void> {
    this.assertOpen();
    // Serialise every message before routing any, so a payload that cannot cross a real broker
    // fails here too, and fails the whole batch rather than half of it.
    const encoded = messages.map((m) => ({ topic: m.topic, body: encode(m) }));
    for (const { topic, body } of encoded) this.broker.route(topic, body);
  }

  /**
   * Publishes, and `settled` resolves once every consumer the messages were routed to is done with
   * its copy (handled, or dead-lettered after its retries); it rejects if the bus closes first.
   * Memory is no durable queue: the outbox relay keeps these events "unsettled" until then, and
   * publishes again what stayed unsettled too long (a process killed while a consumer held it);
   * consumers de-duplicate by event id.
   */
  async publishSettled(messages: readonly BusMessage[]): Promise<{ readonly settled: Promise<void> }> {
    this.assertOpen();
    const encoded = messages.map((m) => ({ topic: m.topic, body: encode(m) }));
    const waits: Promise<void>[] = [];
    const settlementFor = () => {
      let settle!: () => void;
      let fail!: (error: Error) => void;
      waits.push(
        new Promise<void>((resolve, reject) => {
          settle = resolve;
          fail = reject;
        }),
      );
      this.unsettled.add(fail);
      return {
        settled: () => {
          this.unsettled.delete(fail);
          settle();
        },
      };
    };
    for (const { topic, body } of encoded) this.broker.route(topic, body, settlementFor);
    const settled = Promise.all(waits).then(() => undefined);
    // Whoever asks may not wait: a closed bus must not become an unhandled rejection.
    settled.catch(() => undefined);
    return { settled };
  }

  async subscribe(topicPattern: string, handler: BusHandler, options: SubscriptionOptions): Promise<void> {
    this.assertOpen();
    const policy = subscriptionPolicy(options);
    if (this.subscriptions.has(policy.consumer)) {
      throw new Error(`consumer "${policy.consumer}" is already subscribed on this bus`);
    }
    this.broker.bind(policy.consumer, topicPattern);
    // Handlers run in the subscriber's async context, never the publisher's: a publish made inside
    // a database transaction must not hand that transaction (AsyncLocalStorage) to the consumer.
    this.subscriptions.set(policy.consumer, new LocalSubscription(this.broker, AsyncResource.bind(handler), policy));
  }

  /** Messages the consumer gave up on, oldest first. */
  async deadLetters(consumer: string): Promise<readonly DeadLetter[]> {
    return this.broker.deadLetters(consumer);
  }

  close(): Promise<void> {
    this.closing ??= Promise.all([...this.subscriptions.values()].map((s) => s.stop())).then(() => {
      const closed = new Error('the message bus closed before a consumer handled the message');
      for (const fail of this.unsettled) fail(closed);
      this.unsettled.clear();
    });
    return this.closing;
  }

  private assertOpen(): void {
    if (this.closing) throw new Error('the message bus is closed');
  }
}

function encode(message: BusMessage): string {
  const { id, topic, payload, occurredAt } = message;
  return JSON.stringify({ id, topic, payload, occurredAt });
}
