import { randomBytes } from 'node:crypto';
import { readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { startEmbeddedPostgres } from '@voiceplane/adapter-embedded-postgres';
import { createDataSource, migrate } from '@voiceplane/adapter-typeorm';
import { CeilingExceeded, withinCeiling } from './wait';

export interface ScratchDatabase {
  readonly url: string;
  readonly dataSource: DataSource;
  /** Closes the DataSource and drops the database (or stops the embedded server). */
  close(): Promise<void>;
}

/** Prefixes of the scratch databases this repository creates; the stale sweep looks at nothing else. */
export const SCRATCH_PREFIXES = ['vp_test', 'vp_bench'] as const;

/** How long `close` waits for the pool to hand back its connections before it drops the database anyway. */
const CLOSE_CEILING_MS = 15_000;

/**
 * Who created a scratch database, stored as the database's comment, so a later run can tell a
 * database whose creator was killed (drop it) from one a concurrent run still uses (leave it).
 */
export interface ScratchCreator {
  readonly host: string;
  /** The PID namespace: a PID means something only inside the namespace it came from. */
  readonly pidNamespace: string | null;
  readonly pid: number;
  /** Epoch milliseconds. */
  readonly created: number;
}

export function currentCreator(now = Date.now()): ScratchCreator {
  let pidNamespace: string | null = null;
  try {
    pidNamespace = readlinkSync('/proc/self/ns/pid');
  } catch {
    // Not Linux: host and PID alone.
  }
  return { host: hostname(), pidNamespace, pid: process.pid, created: now };
}

/**
 * A fresh, migrated database that nothing else uses: a new database on `serverUrl`'s server, or an
 * in-memory PGlite when no server is given. Tests and benchmarks each get one, so they never share state.
 */
export async function createScratchDatabase(options: {
  serverUrl?: string;
  poolSize: number;
  prefix: string;
  /** How long `close` waits for connections to be handed back before it ends them (default 15 s). */
  closeCeilingMs?: number;
}): Promise<ScratchDatabase> {
  if (!options.serverUrl) {
    const embedded = await startEmbeddedPostgres();
    const dataSource = createDataSource({ url: embedded.url, poolSize: Math.min(options.poolSize, 8) });
    await dataSource.initialize();
    await migrate(dataSource);
    return {
      url: embedded.url,
      dataSource,
      close: async () => {
        await dataSource.destroy();
        await embedded.stop();
      },
    };
  }
  const serverUrl = options.serverUrl;
  const name = `${options.prefix}_${randomBytes(6).toString('hex')}`;
  const note = JSON.stringify(currentCreator()).replaceAll("'", "''");
  await onServer(serverUrl, [`CREATE DATABASE ${name}`, `COMMENT ON DATABASE ${name} IS '${note}'`]);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const dataSource = createDataSource({ url: url.toString(), poolSize: options.poolSize, preparedStatements: true });
  try {
    await dataSource.initialize();
    await migrate(dataSource);
  } catch (e) {
    await dataSource.destroy().catch(() => undefined);
    await onServer(serverUrl, [`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`]);
    throw e;
  }
  return {
    url: url.toString(),
    dataSource,
    async close() {
      // The pool's end waits for every connection to come back; one a test kept (a LISTEN
      // connection, an open transaction) would make it wait forever and keep the run alive.
      // Past the ceiling the drop ends those sessions by force, and the test file fails saying why.
      const clients = poolClients(dataSource);
      const failure = await withinCeiling(
        dataSource.destroy(),
        `the connections of ${name} to be handed back`,
        options.closeCeilingMs ?? CLOSE_CEILING_MS,
      ).then(
        () => null,
        (e: Error) => e,
      );
      // Ended from this side, the kept connections close quietly (ended by the server, they would
      // raise 'error' on a client nobody listens to) and no longer hold the process open.
      if (failure instanceof CeilingExceeded) {
        await withinCeiling(
          Promise.all(clients().map((client) => client.end())),
          `the kept connections of ${name} to end`,
          5_000,
        ).catch(() => undefined);
      }
      await onServer(serverUrl, [`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`]);
      if (failure instanceof CeilingExceeded) {
        throw new Error(
          `${failure.message}: a test kept a connection checked out (release it, or stop what holds it, in a finally); ${name} was dropped by force`,
        );
      }
      if (failure) throw failure;
    },
  };
}

/** The pool's open connections, handed back or not: read from pg's pool, which has no public list of them. */
function poolClients(dataSource: DataSource): () => Client[] {
  const pool = (dataSource.driver as unknown as { master?: { _clients?: Client[] } }).master;
  return () => [...(pool?._clients ?? [])];
}

/** Runs statements on the server's maintenance connection; never waits forever for the server to answer. */
export async function onServer<T = unknown>(serverUrl: string, statements: string[]): Promise<T[][]> {
  const client = new Client({ connectionString: serverUrl, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    const results: T[][] = [];
    for (const sql of statements) results.push((await client.query(sql)).rows as T[]);
    return results;
  } finally {
    await client.end();
  }
}
