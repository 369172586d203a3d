/** The broker URL for RabbitMQ suites; they are skipped (loudly, in global setup) without one. */
export const amqpUrl = process.env.AMQP_URL ?? '';

export const describeWithAmqp: jest.Describe = amqpUrl ? describe : describe.skip;
