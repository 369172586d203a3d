import { PostgreSqlContainer } from '@testcontainers/postgresql';
import { RabbitMQContainer } from '@testcontainers/rabbitmq';
import { getContainerRuntimeClient, type StartedTestContainer } from 'testcontainers';

/** Long enough for a local engine to answer, short enough that a machine without one barely notices. */
const PROBE_TIMEOUT_MS = 3_000;

/** Whether a Docker engine answers; false (never a hang) when the CLI is installed but no engine runs. */
export async function dockerAvailable(): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), PROBE_TIMEOUT_MS);
    timer.unref();
  });
  const probe = getContainerRuntimeClient().then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([probe, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

// Global setup and teardown are loaded as separate modules of the same process; Jest's documented
// way to hand state from one to the other is a global.
const registry = globalThis as typeof globalThis & { __voiceplaneContainers?: StartedTestContainer[] };

function remember(container: StartedTestContainer): void {
  registry.__voiceplaneContainers = [...(registry.__voiceplaneContainers ?? []), container];
}

/** A PostgreSQL 15 server for the run; returns a URL whose user may create databases. */
export async function startPostgresContainer(): Promise<string> {
  const container = await new PostgreSqlContainer('postgres:15-alpine').start();
  remember(container);
  return container.getConnectionUri();
}

/** A RabbitMQ 3 broker for the run; returns its AMQP URL (guest credentials). */
export async function startRabbitMqContainer(): Promise<string> {
  const container = await new RabbitMQContainer('rabbitmq:3-alpine').start();
  remember(container);
  return `amqp://guest:guest@${container.getHost()}:${container.getMappedPort(5672)}`;
}

/** Stops what global setup started (nothing when the run used URLs or fallbacks). */
export async function stopContainers(): Promise<void> {
  const started = registry.__voiceplaneContainers ?? [];
  registry.__voiceplaneContainers = [];
  await Promise.all(started.map((container) => container.stop()));
}
