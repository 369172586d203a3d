/**
 * The broker URL for RabbitMQ suites: AMQP_URL, or the container global setup started. Without
 * either they are skipped (loudly, in global setup).
 */
export const amqpUrl = process.env.AMQP_URL ?? '';

export const describeWithAmqp: jest.Describe = amqpUrl ? describe : describe.skip;
