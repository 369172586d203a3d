import { BusHandler } from '@voiceplane/application';
import { ChannelModel, ConfirmChannel, ConsumeMessage } from 'amqplib';
import { BusLogger } from './bus-logger';
import { publishConfirmed } from './confirmed-send';
import { decodeBody, describeError, failedAttempts, failureOptions } from './message-codec';
import { SubscriptionPolicy } from '@voiceplane/application';
import { ConsumerQueues, declareConsumerQueues } from './topology';

/** What the subscription needs from its bus when the broker breaks its channel. */
export type ChannelFailureHandler = (model: ChannelModel, reason: string) => void;

/**
 * One consumer: its queues, its channel on the current connection, and what happens to each
 * delivery. It outlives connections: the bus attaches it again after every reconnect.
 */
export class RabbitMqSubscription {
  private attached?: { channel: ConfirmChannel; consumerTag: string };
  private readonly inFlight = new Set<Promise<void>>();
  private stopping = false;

  constructor(
    readonly topicPattern: string,
    private readonly queues: ConsumerQueues,
    private readonly handler: BusHandler,
    private readonly policy: SubscriptionPolicy,
    private readonly logger: BusLogger,
    private readonly onChannelFailure: ChannelFailureHandler,
  ) {}

  /** Declares this consumer's queues on `model` and starts consuming from them. */
  async attach(model: ChannelModel, exchange: string): Promise<void> {
    if (this.stopping) throw new Error(`consumer ${this.policy.consumer} is stopping`);
    // A confirm channel, so that moving a failed message to its retry or dead queue is confirmed
    // before the original is acked: a crash between the two duplicates a message, never loses it.
    const channel = await model.createConfirmChannel();
    channel.on('error', (error: Error) => {
      if (!this.stopping) this.onChannelFailure(model, `consumer ${this.policy.consumer}: ${error.message}`);
    });
    await declareConsumerQueues(channel, exchange, this.queues, this.topicPattern, this.policy.transient);
    await channel.prefetch(this.policy.prefetch);
    const { consumerTag } = await channel.consume(
      this.queues.main,
      (raw) => {
        if (raw === null) {
          // The broker cancelled the consumer (its queue was deleted): reconnecting re-declares it.
          this.onChannelFailure(model, `consumer ${this.policy.consumer} was cancelled by the broker`);
          return;
        }
        // Left unacked when stopping (a reconnect raced with close): the broker requeues it.
        if (!this.stopping) this.track(this.handle(channel, raw));
      },
      { noAck: false },
    );
    this.attached = { channel, consumerTag };
  }

  /** Stops consuming, waits for running handlers to settle their messages, and closes the channel. */
  async stop(): Promise<void> {
    this.stopping = true;
    const attached = this.attached;
    if (attached) await attached.channel.cancel(attached.consumerTag).catch(() => undefined);
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
    if (attached) await attached.channel.close().catch(() => undefined);
  }

  private track(delivery: Promise<void>): void {
    this.inFlight.add(delivery);
    void delivery.finally(() => this.inFlight.delete(delivery));
  }

  private async handle(channel: ConfirmChannel, raw: ConsumeMessage): Promise<void> {
    try {
      const decoded = decodeBody(raw.content);
      if (!decoded.ok) {
        // Retrying cannot repair a body: straight to the dead-letter queue.
        await this.moveTo(channel, raw, this.queues.dead, failedAttempts(raw) + 1, decoded.reason);
        return;
      }
      try {
        await this.handler(decoded.message);
      } catch (error) {
        await this.handleFailure(channel, raw, describeError(error));
        return;
      }
      channel.ack(raw);
    } catch (error) {
      // The channel died under us (connection lost): the broker redelivers the unacked message.
      this.logger.warn(
        { consumer: this.policy.consumer, messageId: raw.properties.messageId, error: describeError(error) },
        'message left unacknowledged; the broker will redeliver it',
      );
    }
  }

  private async handleFailure(channel: ConfirmChannel, raw: ConsumeMessage, error: string): Promise<void> {
    const attempts = failedAttempts(raw) + 1;
    const context = { consumer: this.policy.consumer, messageId: raw.properties.messageId, attempts, error };
    if (attempts > this.policy.maxRetries) {
      this.logger.error(context, 'handler failed for the last time; message dead-lettered');
      await this.moveTo(channel, raw, this.queues.dead, attempts, error);
    } else {
      this.logger.warn(context, 'handler failed; message will be retried');
      await this.moveTo(channel, raw, this.queues.retry, attempts, error, this.policy.retryDelayMs);
    }
  }

  private async moveTo(
    channel: ConfirmChannel,
    raw: ConsumeMessage,
    queue: string,
    attempts: number,
    error: string,
    expirationMs?: number,
  ): Promise<void> {
    await publishConfirmed(channel, '', queue, raw.content, failureOptions(raw, attempts, error, expirationMs));
    channel.ack(raw);
  }
}
