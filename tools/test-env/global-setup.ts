import net from 'node:net';
import { Client } from 'pg';

/**
 * Resolves the real services once per run. DATABASE_URL / AMQP_URL when set; otherwise each
 * integration file runs on its own embedded PGlite and AMQP suites are skipped with a banner.
 * REQUIRE_INTEGRATION=1 (CI) turns any fallback into a failure.
 */
export default async function globalSetup(): Promise<void> {
  const required = process.env.REQUIRE_INTEGRATION === '1';
  const problems: string[] = [];

  if (process.env.DATABASE_URL) {
    const client = new Client({ connectionString: process.env.DATABASE_URL });
    try {
      await client.connect();
      await client.query('SELECT 1');
    } catch (e) {
      problems.push(`DATABASE_URL is set but PostgreSQL does not answer: ${(e as Error).message}`);
    } finally {
      await client.end().catch(() => undefined);
    }
  } else {
    banner('DATABASE_URL is not set: integration suites run on embedded PGlite (PostgreSQL 18 in WASM).');
    if (required) problems.push('REQUIRE_INTEGRATION=1 but DATABASE_URL is not set.');
  }

  if (process.env.AMQP_URL) {
    const url = new URL(process.env.AMQP_URL);
    const reachable = await new Promise<boolean>((resolve) => {
      const socket = net.connect(Number(url.port || 5672), url.hostname);
      socket.once('connect', () => { socket.destroy(); resolve(true); });
      socket.once('error', () => resolve(false));
    });
    if (!reachable) problems.push(`AMQP_URL is set but RabbitMQ does not answer at ${url.host}.`);
  } else {
    banner('AMQP_URL is not set: RabbitMQ suites are SKIPPED. Set AMQP_URL to run them.');
    if (required) problems.push('REQUIRE_INTEGRATION=1 but AMQP_URL is not set.');
  }

  if (problems.length > 0 && (required || process.env.DATABASE_URL || process.env.AMQP_URL)) {
    throw new Error(`Integration environment is not usable:\n - ${problems.join('\n - ')}`);
  }
}

function banner(text: string): void {
  const line = '!'.repeat(Math.min(100, text.length + 4));
  process.stdout.write(`\n${line}\n! ${text} !\n${line}\n`);
}
