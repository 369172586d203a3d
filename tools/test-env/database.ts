import { Database } from '@voiceplane/adapter-typeorm';
import { createScratchDatabase, type ScratchDatabase } from './scratch-database';

export type TestDatabase = ScratchDatabase;

/**
 * A fresh, migrated database for one test file: its own database on the real server when
 * DATABASE_URL is set, else an in-memory PGlite. Files never share state, so they run in parallel.
 */
export function createTestDatabase(): Promise<TestDatabase> {
  return createScratchDatabase({ serverUrl: process.env.DATABASE_URL, poolSize: 8, prefix: 'vp_test' });
}

/**
 * The suite file's own database, created before its tests and closed after them; call it at the
 * top level of the file and read the `Database` inside tests.
 */
export function useTestDatabase(): () => Database {
  let db: TestDatabase;
  let database: Database;
  beforeAll(async () => {
    db = await createTestDatabase();
    database = new Database(db.dataSource);
  });
  afterAll(async () => db.close());
  return () => database;
}
