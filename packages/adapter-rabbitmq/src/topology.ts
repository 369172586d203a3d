import { Channel, connect } from 'amqplib';

export const DEFAULT_EXCHANGE = 'voiceplane.events';
export const DEFAULT_QUEUE_PREFIX = 'vp';

/** The three queues every consumer owns. */
export interface ConsumerQueues {
  /** Bound to the exchange with the consumer's topic pattern. */
  readonly main: string;
  /** Holds a failed message for the retry delay, then dead-letters it back into `main`. */
  readonly retry: string;
  /** Where a message rests after its last retry, for inspection and manual replay. */
  readonly dead: string;
}

export function consumerQueues(queuePrefix: string, consumer: string): ConsumerQueues {
  const main = `${queuePrefix}.${consumer}`;
  return { main, retry: `${main}.retry`, dead: `${main}.dead` };
}

export async function declareExchange(channel: Channel, exchange: string): Promise<void> {
  await channel.assertExchange(exchange, 'topic', { durable: true });
}

/** How long the broker keeps the queues of a transient consumer once nothing uses them. */
const TRANSIENT_QUEUE_EXPIRES_MS = 60_000;

export async function declareConsumerQueues(
  channel: Channel,
  exchange: string,
  queues: ConsumerQueues,
  topicPattern: string,
  transient = false,
): Promise<void> {
  // A transient consumer's queues expire once unused, so an instance that died leaves nothing
  // behind collecting messages; its retry and dead queues, never consumed, last as long.
  const lifetime = transient ? { durable: false, expires: TRANSIENT_QUEUE_EXPIRES_MS } : { durable: true };
  await channel.assertQueue(queues.main, lifetime);
  // The delay is a per-message expiration rather than a queue TTL, so changing a consumer's
  // retryDelayMs does not make the redeclaration fail with PRECONDITION_FAILED. Every message
  // in one retry queue carries the same delay, so none waits behind a longer-lived one.
  // Expired messages go back through the default exchange straight to this consumer's queue,
  // not through the topic exchange, where every other consumer would receive them again.
  await channel.assertQueue(queues.retry, {
    ...lifetime,
    deadLetterExchange: '',
    deadLetterRoutingKey: queues.main,
  });
  await channel.assertQueue(queues.dead, lifetime);
  await channel.bindQueue(queues.main, exchange, topicPattern);
}

export interface TopologyToDelete {
  readonly url: string;
  readonly exchange?: string;
  readonly queuePrefix?: string;
  readonly consumers: readonly string[];
}

/**
 * Deletes the exchange and the queues of the given consumers, messages included: for retiring
 * consumers and for test runs that must leave the broker as they found it.
 */
export async function deleteBusTopology(topology: TopologyToDelete): Promise<void> {
  const connection = await connect(topology.url);
  try {
    const channel = await connection.createChannel();
    for (const consumer of topology.consumers) {
      const queues = consumerQueues(topology.queuePrefix ?? DEFAULT_QUEUE_PREFIX, consumer);
      for (const queue of [queues.main, queues.retry, queues.dead]) await channel.deleteQueue(queue);
    }
    await channel.deleteExchange(topology.exchange ?? DEFAULT_EXCHANGE);
    await channel.close();
  } finally {
    await connection.close();
  }
}
