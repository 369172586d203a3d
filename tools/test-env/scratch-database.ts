import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { startEmbeddedPostgres } from '@voiceplane/adapter-embedded-postgres';
import { createDataSource, migrate } from '@voiceplane/adapter-typeorm';

export interface ScratchDatabase {
  readonly url: string;
  readonly dataSource: DataSource;
  /** Closes the DataSource and drops the database (or stops the embedded server). */
  close(): Promise<void>;
}

/**
 * A fresh, migrated database that nothing else uses: a new database on `serverUrl`'s server, or an
 * in-memory PGlite when no server is given. Tests and benchmarks each get one, so they never share state.
 */
export async function createScratchDatabase(options: { serverUrl?: string; poolSize: number; prefix: string }): Promise<ScratchDatabase> {
  if (!options.serverUrl) {
    const embedded = await startEmbeddedPostgres();
    const dataSource = createDataSource({ url: embedded.url, poolSize: Math.min(options.poolSize, 8) });
    await dataSource.initialize();
    await migrate(dataSource);
    return { url: embedded.url, dataSource, close: async () => { await dataSource.destroy(); await embedded.stop(); } };
  }
  const name = `${options.prefix}_${randomBytes(6).toString('hex')}`;
  await onServer(options.serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(options.serverUrl);
  url.pathname = `/${name}`;
  const dataSource = createDataSource({ url: url.toString(), poolSize: options.poolSize, preparedStatements: true });
  await dataSource.initialize();
  await migrate(dataSource);
  return {
    url: url.toString(),
    dataSource,
    async close() {
      await dataSource.destroy();
      await onServer(options.serverUrl!, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

async function onServer(serverUrl: string, sql: string): Promise<void> {
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
