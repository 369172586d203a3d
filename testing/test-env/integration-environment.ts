/**
 * Where the integration lane finds PostgreSQL and RabbitMQ. Per service, in this order: the URL the
 * environment names; else a container when a Docker engine answers; else the fallback (embedded
 * PGlite for the database, skipped suites for the broker). The engine is asked only when a URL is
 * missing, so a run with both URLs never waits on it.
 */
export type DatabaseSource = 'url' | 'container' | 'embedded';
export type BrokerSource = 'url' | 'container' | 'skipped';

export interface IntegrationEnvironment {
  readonly database: DatabaseSource;
  readonly broker: BrokerSource;
  /** REQUIRE_INTEGRATION=1: a fallback is a failure, not a degraded run. */
  readonly required: boolean;
}

export async function chooseIntegrationEnvironment(
  env: NodeJS.ProcessEnv,
  dockerAvailable: () => Promise<boolean>,
): Promise<IntegrationEnvironment> {
  const hasDatabaseUrl = Boolean(env.DATABASE_URL);
  const hasAmqpUrl = Boolean(env.AMQP_URL);
  const docker = hasDatabaseUrl && hasAmqpUrl ? false : await dockerAvailable();
  return {
    database: hasDatabaseUrl ? 'url' : docker ? 'container' : 'embedded',
    broker: hasAmqpUrl ? 'url' : docker ? 'container' : 'skipped',
    required: env.REQUIRE_INTEGRATION === '1',
  };
}

/** The one line a run prints so its log says what the integration lane ran against. */
export function describeIntegrationEnvironment(choice: IntegrationEnvironment): string {
  const database = {
    url: 'PostgreSQL from DATABASE_URL',
    container: 'PostgreSQL 15 container (testcontainers)',
    embedded: 'embedded PGlite',
  }[choice.database];
  const broker = {
    url: 'RabbitMQ from AMQP_URL',
    container: 'RabbitMQ 3 container (testcontainers)',
    skipped: 'RabbitMQ suites SKIPPED',
  }[choice.broker];
  return `Integration environment: ${database}; ${broker}.`;
}

/** Why the choice cannot run under REQUIRE_INTEGRATION=1 (empty when it can). */
export function requirementShortfalls(choice: IntegrationEnvironment): string[] {
  if (!choice.required) return [];
  const shortfalls: string[] = [];
  if (choice.database === 'embedded')
    shortfalls.push('REQUIRE_INTEGRATION=1 but DATABASE_URL is not set and no Docker engine answers.');
  if (choice.broker === 'skipped')
    shortfalls.push('REQUIRE_INTEGRATION=1 but AMQP_URL is not set and no Docker engine answers.');
  return shortfalls;
}
