import { Database } from '@voiceplane/adapter-typeorm';
import { createScratchDatabase, type ScratchDatabase } from './scratch-database';

export type TestDatabase = ScratchDatabase;

/**
 * A fresh, migrated database for one test file: its own database on the real server when
 * DATABASE_URL is set, else an in-memory PGlite. Files never share state, so they run in parallel.
 */
export function createTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  return createScratchDatabase({
    serverUrl: options.embedded ? undefined : process.env.DATABASE_URL,
    poolSize: 8,
    prefix: 'vp_test',
  });
}

const EMBEDDED_START_CEILING_MS = 240_000;

export interface TestDatabaseOptions {
  /** An in-memory PGlite even when DATABASE_URL names a server: for what differs between the two (pgvector). */
  readonly embedded?: boolean;
}

/**
 * The suite file's own database, created before its tests and closed after them; call it at the
 * top level of the file and read the `Database` inside tests.
 */
export function useTestDatabase(options: TestDatabaseOptions = {}): () => Database {
  let db: TestDatabase;
  let database: Database;
  beforeAll(
    async () => {
      db = await createTestDatabase(options);
      database = new Database(db.dataSource);
      // PGlite boots its WebAssembly PostgreSQL and runs every migration: on a loaded 2-core machine
      // that alone can pass the suite's 60 s, which is sized for tests against a running server.
    },
    options.embedded ? EMBEDDED_START_CEILING_MS : undefined,
  );
  afterAll(async () => db.close());
  return () => database;
}
