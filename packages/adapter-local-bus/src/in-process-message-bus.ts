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
    this.closing ??= Promise.all([...this.subscriptions.values()].map((s) => s.stop())).then(() => undefined);
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
