import { BusHandler, BusMessage, MessageBus, SubscriptionOptions } from '@voiceplane/application';
import { ChannelModel, connect, RecoveringChannelModel } from 'amqplib';
import { BusLogger, silentLogger } from './bus-logger';
import { publishConfirmed } from './confirmed-send';
import { CurrentConnection } from './current-connection';
import { decodeBody, describeError, encodeBody, failedAttempts, lastError, publishOptions } from './message-codec';
import { RabbitMqSubscription } from './rabbitmq-subscription';
import { subscriptionPolicy } from '@voiceplane/application';
import { consumerQueues, declareExchange, DEFAULT_EXCHANGE, DEFAULT_QUEUE_PREFIX } from './topology';

export interface RabbitMqMessageBusOptions {
  readonly url: string;
  readonly exchange?: string;
  readonly queuePrefix?: string;
  readonly logger?: BusLogger;
  /**
   * Upper bound for one `publish()` (waiting out an outage included) and for `subscribe()` to
   * reach the broker. Past it the call rejects; the outbox relay retries. Default 30 s.
   */
  readonly operationTimeoutMs?: number;
}

/** A message in a consumer's dead-letter queue. */
export interface DeadLetter {
  readonly message: BusMessage;
  /** Failed handler runs: the first delivery plus every retry. */
  readonly attempts: number;
  readonly lastError: string;
}

// Reconnection is amqplib's own opt-in recovery (amqplib 2: back-off, a setup run on every new
// connection), not amqp-connection-manager, which would wrap the same driver in a second one.
// Reconnect quickly after a blip, then back off; a worker should not wait long once the broker
// is back, and 5 s between attempts is gentle enough on a broker that is restarting.
const RECONNECT = { initialDelay: 100, factor: 2, maxDelay: 5_000, jitter: 0.2 } as const;

/**
 * The production bus: a durable topic exchange, one durable queue per consumer with a retry and a
 * dead-letter queue beside it, publisher confirms, and recovery from lost connections.
 */
export class RabbitMqMessageBus implements MessageBus {
  private readonly url: string;
  private readonly exchange: string;
  private readonly queuePrefix: string;
  private readonly logger: BusLogger;
  private readonly operationTimeoutMs: number;
  private readonly current = new CurrentConnection();
  private readonly subscriptions = new Map<string, RabbitMqSubscription>();
  private readonly publishing = new Set<Promise<void>>();
  private connection?: Promise<RecoveringChannelModel>;
  private closing?: Promise<void>;

  constructor(options: RabbitMqMessageBusOptions) {
    this.url = options.url;
    this.exchange = options.exchange ?? DEFAULT_EXCHANGE;
    this.queuePrefix = options.queuePrefix ?? DEFAULT_QUEUE_PREFIX;
    this.logger = options.logger ?? silentLogger;
    this.operationTimeoutMs = options.operationTimeoutMs ?? 30_000;
  }

  async publish(messages: readonly BusMessage[]): Promise<void> {
    this.assertOpen();
    if (messages.length === 0) return;
    const encoded = messages.map((message) => ({ message, body: encodeBody(message) }));
    const publishing = this.publishAll(encoded);
    this.publishing.add(publishing);
    try {
      await publishing;
    } finally {
      this.publishing.delete(publishing);
    }
  }

  async subscribe(topicPattern: string, handler: BusHandler, options: SubscriptionOptions): Promise<void> {
    this.assertOpen();
    const policy = subscriptionPolicy(options);
    this.assertNotSubscribed(policy.consumer);
    const ready = await this.whenReady(this.operationTimeoutMs);
    this.assertOpen();
    this.assertNotSubscribed(policy.consumer);

    const queues = consumerQueues(this.queuePrefix, policy.consumer);
    const subscription = new RabbitMqSubscription(topicPattern, queues, handler, policy, this.logger, (model, reason) =>
      this.recycle(model, reason),
    );
    // Registered before attaching: if the connection drops meanwhile, recovery attaches it.
    this.subscriptions.set(policy.consumer, subscription);
    try {
      await subscription.attach(ready.model, this.exchange);
    } catch (error) {
      if (this.current.get() === ready) {
        this.subscriptions.delete(policy.consumer);
        throw error;
      }
      this.logger.warn(
        { consumer: policy.consumer, error: describeError(error) },
        'connection lost while subscribing; it will attach on reconnect',
      );
    }
  }

  /**
   * The messages resting in a consumer's dead-letter queue, oldest first, at most `limit`.
   * They stay in the queue: reading them only borrows them until the inspection channel closes.
   * Bodies that are not bus messages at all are left out of the list, though not out of the queue.
   */
  async deadLetters(consumer: string, limit = 1_000): Promise<DeadLetter[]> {
    this.assertOpen();
    const ready = await this.whenReady(this.operationTimeoutMs);
    const channel = await ready.model.createChannel();
    // A missing queue closes this channel with an error that `get` also rejects with.
    channel.on('error', () => undefined);
    const letters: DeadLetter[] = [];
    try {
      const queue = consumerQueues(this.queuePrefix, consumer).dead;
      while (letters.length < limit) {
        const raw = await channel.get(queue, { noAck: false });
        if (!raw) break;
        const decoded = decodeBody(raw.content);
        if (decoded.ok)
          letters.push({ message: decoded.message, attempts: failedAttempts(raw), lastError: lastError(raw) });
      }
    } finally {
      await channel.close().catch(() => undefined);
    }
    return letters;
  }

  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async publishAll(encoded: readonly { message: BusMessage; body: Buffer }[]): Promise<void> {
    const deadline = Date.now() + this.operationTimeoutMs;
    const ready = await this.whenReady(this.operationTimeoutMs);
    const confirmations = Promise.all(
      encoded.map(({ message, body }) =>
        publishConfirmed(ready.publisher, this.exchange, message.topic, body, publishOptions(message)),
      ),
    );
    await withinDeadline(confirmations, deadline, 'broker did not confirm the messages in time');
  }

  private whenReady(timeoutMs: number) {
    if (!this.connection) {
      this.connection = this.openConnection();
      // Recovery retries unreachable brokers forever; only a bad configuration ends up here.
      this.connection.catch((error: Error) => this.current.shut(error));
    }
    return this.current.whenReady(timeoutMs);
  }

  private async openConnection(): Promise<RecoveringChannelModel> {
    const connection = await connect(this.url, {
      clientProperties: { connection_name: `voiceplane bus (${this.queuePrefix})` },
      recovery: { ...RECONNECT, waitForConnect: false, setup: (model: ChannelModel) => this.prepare(model) },
    });
    connection.on('error', (error: Error) => this.logger.warn({ error: error.message }, 'RabbitMQ connection error'));
    connection.on('disconnect', (error: Error) =>
      this.logger.warn({ error: error.message }, 'lost the RabbitMQ connection'),
    );
    connection.on('connect-failed', (error: Error) =>
      this.logger.warn({ error: error.message }, 'could not connect to RabbitMQ'),
    );
    connection.on('reconnect-scheduled', ({ attempt, delay }: { attempt: number; delay: number }) =>
      this.logger.info({ attempt, delayMs: delay }, 'reconnecting to RabbitMQ'),
    );
    connection.on('connect', () => this.logger.info({ exchange: this.exchange }, 'connected to RabbitMQ'));
    return connection;
  }

  /**
   * Runs after every (re)connection, before the connection counts as usable: declares the
   * exchange, opens the publisher channel and re-attaches every consumer. If any step fails,
   * amqplib closes this connection and tries again with backoff.
   */
  private async prepare(model: ChannelModel): Promise<void> {
    if (this.closing) throw new Error('the message bus is closing');
    model.once('close', () => this.current.lose(model));
    const publisher = await model.createConfirmChannel();
    publisher.on('error', (error: Error) => this.recycle(model, `publisher channel: ${error.message}`));
    await declareExchange(publisher, this.exchange);
    for (const subscription of this.subscriptions.values()) await subscription.attach(model, this.exchange);
    this.current.set({ model, publisher });
  }

  /**
   * A channel the broker closed (deleted queue, failed declaration) takes its consumer with it.
   * Closing the whole connection lets recovery rebuild every channel and declaration in one place.
   */
  private recycle(model: ChannelModel, reason: string): void {
    if (this.closing) return;
    this.logger.warn({ reason }, 'a RabbitMQ channel failed; reconnecting to restore it');
    this.current.lose(model);
    model.close().catch(() => undefined);
  }

  private async shutDown(): Promise<void> {
    const ready = this.current.get();
    this.current.shut(new Error('the message bus is closed'));
    await Promise.allSettled([...this.publishing]);
    await Promise.allSettled([...this.subscriptions.values()].map((subscription) => subscription.stop()));
    await ready?.publisher.close().catch(() => undefined);
    const connection = await this.connection?.catch(() => undefined);
    // Also cancels a reconnect that may be pending.
    await connection?.close();
  }

  private assertOpen(): void {
    if (this.closing) throw new Error('the message bus is closed');
  }

  private assertNotSubscribed(consumer: string): void {
    if (this.subscriptions.has(consumer)) throw new Error(`consumer "${consumer}" is already subscribed on this bus`);
  }
}

/** Rejects when `deadline` passes first; a late outcome of `work` is then ignored. */
function withinDeadline<T>(work: Promise<T>, deadline: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), Math.max(0, deadline - Date.now()));
  });
  work.catch(() => undefined);
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}
