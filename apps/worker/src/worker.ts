import 'reflect-metadata';
import type { Logger } from 'pino';
import { createDataSource, pendingMigrations } from '@voiceplane/adapter-typeorm';
import { RabbitMqMessageBus } from '@voiceplane/adapter-rabbitmq';
import { composeApi, type Config } from '@voiceplane/composition';

export interface WorkerOptions {
  readonly config: Config;
  readonly logger: Logger;
  /** Exchange and queue-name prefix on the broker (defaults: the bus adapter's). */
  readonly exchange?: string;
  readonly queuePrefix?: string;
}

export interface RunningWorker {
  /** Takes no new work, finishes what is in hand, and disconnects. */
  stop(): Promise<void>;
}

export class WorkerConfigError extends Error {}

/**
 * The production worker: the same composition as the api (so every capability's consumers, job
 * handlers and sweepers are present), without the HTTP server, running every background task —
 * the outbox relay, the scheduler and the bus consumers. Any number may run side by side.
 */
export async function startWorker(options: WorkerOptions): Promise<RunningWorker> {
  const { config, logger } = options;
  if (!config.databaseUrl)
    throw new WorkerConfigError(
      "The worker needs DATABASE_URL: it shares the api's PostgreSQL (the embedded one lives inside the api process).",
    );
  if (!config.amqpUrl)
    throw new WorkerConfigError(
      'The worker needs AMQP_URL: without RabbitMQ the api runs its background work itself (single-process mode).',
    );

  const dataSource = createDataSource({
    url: config.databaseUrl,
    poolSize: 20,
    applicationName: 'voiceplane-worker',
    preparedStatements: true,
  });
  await dataSource.initialize();
  try {
    const pending = await pendingMigrations(dataSource);
    if (pending.length > 0)
      throw new WorkerConfigError(
        `The database schema is behind (${pending.join(', ')}): migrate before starting workers.`,
      );
  } catch (e) {
    await dataSource.destroy();
    throw e;
  }

  const bus = new RabbitMqMessageBus({
    url: config.amqpUrl,
    exchange: options.exchange,
    queuePrefix: options.queuePrefix,
    logger: logger.child({ component: 'bus' }),
    // The relay holds its batch's row locks while it waits for confirms: give up sooner than
    // the default and let it retry the batch.
    operationTimeoutMs: 10_000,
  });
  const runtime = await composeApi(config, { dataSource, logger, bus });
  const started: (typeof runtime.background)[number][] = [];
  try {
    for (const task of runtime.background) {
      await task.start();
      started.push(task);
    }
  } catch (e) {
    for (const task of started.reverse()) await task.stop().catch(() => undefined);
    await bus.close().catch(() => undefined);
    await dataSource.destroy();
    throw e;
  }
  logger.info({ tasks: started.map((t) => t.name) }, 'worker started');

  let stopping: Promise<void> | undefined;
  return {
    stop() {
      stopping ??= (async () => {
        for (const task of [...started].reverse()) {
          await task.stop().catch((e: Error) => logger.error({ err: e, task: task.name }, 'task stop failed'));
        }
        // Closing the bus lets running handlers finish and settle their messages.
        await bus.close().catch((e: Error) => logger.error({ err: e }, 'bus close failed'));
        await dataSource.destroy();
        logger.info('worker stopped');
      })();
      return stopping;
    },
  };
}
