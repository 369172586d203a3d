import 'reflect-metadata';
import pino from 'pino';
import { LOG_OPTIONS } from '@voiceplane/application';
import { loadConfigOrExit, PRIVATE_TARGETS_WARNING } from '@voiceplane/composition';
import { startWorker, WorkerConfigError } from './worker';

/**
 * `node apps/worker/dist/main.js`. Reads the api's configuration (DATABASE_URL and AMQP_URL
 * required) plus AMQP_EXCHANGE / AMQP_QUEUE_PREFIX to isolate deployments sharing one broker.
 * SIGTERM/SIGINT: finishes the work in hand and exits 0 (forced after 25 s).
 */
async function main(): Promise<void> {
  const config = loadConfigOrExit(process.env);
  const logger = pino({ level: config.logLevel, ...LOG_OPTIONS }).child({ app: 'worker' });
  if (config.allowPrivateTargets) logger.warn(PRIVATE_TARGETS_WARNING);

  let worker;
  try {
    worker = await startWorker({
      config,
      logger,
      exchange: env('AMQP_EXCHANGE'),
      queuePrefix: env('AMQP_QUEUE_PREFIX'),
    });
  } catch (e) {
    if (e instanceof WorkerConfigError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing work in hand');
    const forced = setTimeout(() => {
      logger.error('shutdown took longer than 25 s; exiting');
      process.exit(1);
    }, 25_000);
    forced.unref();
    await worker.stop();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

function env(name: string): string | undefined {
  const value = process.env[name]?.trim();
  return value ? value : undefined;
}

main().catch((e) => {
  process.stderr.write(`voiceplane worker failed to start: ${(e as Error).stack ?? e}\n`);
  process.exit(1);
});
