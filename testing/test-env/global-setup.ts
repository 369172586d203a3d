import net from 'node:net';
import { Client } from 'pg';
import { dockerAvailable, startPostgresContainer, startRabbitMqContainer, stopContainers } from './containers';
import { dropStaleScratchDatabases } from './stale-scratch-databases';
import { findChromium } from './chromium';
import {
  chooseIntegrationEnvironment,
  describeIntegrationEnvironment,
  requirementShortfalls,
} from './integration-environment';

/**
 * Resolves the services once per run (see integration-environment.ts for the order) and prints
 * which ones the run uses. Containers it starts hand their URLs to the test files through
 * DATABASE_URL / AMQP_URL, which the workers inherit. REQUIRE_INTEGRATION=1 (CI) turns any
 * fallback into a failure.
 */
export default async function globalSetup(): Promise<void> {
  try {
    await prepareIntegrationEnvironment();
  } catch (e) {
    // Jest skips global teardown when setup fails.
    await stopContainers();
    throw e;
  }
}

async function prepareIntegrationEnvironment(): Promise<void> {
  const choice = await chooseIntegrationEnvironment(process.env, dockerAvailable);
  process.stdout.write(`\n${describeIntegrationEnvironment(choice)}\n`);
  const problems = requirementShortfalls(choice);

  if (choice.database === 'container') process.env.DATABASE_URL = await startPostgresContainer();
  if (choice.broker === 'container') process.env.AMQP_URL = await startRabbitMqContainer();

  if (choice.database === 'url') {
    const client = new Client({ connectionString: process.env.DATABASE_URL, connectionTimeoutMillis: 10_000 });
    let answers = false;
    try {
      await client.connect();
      await client.query('SELECT 1');
      answers = true;
    } catch (e) {
      problems.push(`DATABASE_URL is set but PostgreSQL does not answer: ${(e as Error).message}`);
    } finally {
      await client.end().catch(() => undefined);
    }
    if (answers) await sweepStaleScratchDatabases(process.env.DATABASE_URL as string);
  } else if (choice.database === 'embedded') {
    banner('DATABASE_URL is not set: integration suites run on embedded PGlite (PostgreSQL 18 in WASM).');
  }

  if (choice.broker === 'url') {
    const url = new URL(process.env.AMQP_URL as string);
    const reachable = await new Promise<boolean>((resolve) => {
      const socket = net.connect(Number(url.port || 5672), url.hostname);
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (!reachable) problems.push(`AMQP_URL is set but RabbitMQ does not answer at ${url.host}.`);
  } else if (choice.broker === 'skipped') {
    banner('AMQP_URL is not set: RabbitMQ suites are SKIPPED. Set AMQP_URL to run them.');
  }

  const chromium = findChromium(process.env);
  if (chromium) process.env.CHROMIUM_PATH = chromium;
  else if (choice.required)
    problems.push(
      'REQUIRE_INTEGRATION=1 but no chromium is installed (apt-get install -y chromium, or set CHROMIUM_PATH).',
    );
  else
    banner(
      'No chromium found: browser suites (*.browser.int.spec.ts) are SKIPPED. apt-get install -y chromium to run them.',
    );

  if (problems.length > 0) {
    throw new Error(`Integration environment is not usable:\n - ${problems.join('\n - ')}`);
  }
}

/** Each test file drops its database; a run killed halfway cannot, so the next run does it. */
async function sweepStaleScratchDatabases(serverUrl: string): Promise<void> {
  try {
    const dropped = await dropStaleScratchDatabases(serverUrl);
    if (dropped.length > 0)
      process.stdout.write(
        `Dropped ${dropped.length} scratch database(s) left by earlier runs: ${dropped.join(', ')}\n`,
      );
  } catch (e) {
    // Leftovers cost disk space, never a result: a sweep that cannot run must not stop the tests.
    process.stdout.write(`Could not look for stale scratch databases: ${(e as Error).message}\n`);
  }
}

function banner(text: string): void {
  const line = '!'.repeat(Math.min(100, text.length + 4));
  process.stdout.write(`\n${line}\n! ${text} !\n${line}\n`);
}
