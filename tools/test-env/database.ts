import { createScratchDatabase, type ScratchDatabase } from '@voiceplane/adapter-typeorm';

export type TestDatabase = ScratchDatabase;

/**
 * A fresh, migrated database for one test file: its own database on the real server when
 * DATABASE_URL is set, else an in-memory PGlite. Files never share state, so they run in parallel.
 */
export function createTestDatabase(): Promise<TestDatabase> {
  return createScratchDatabase({ serverUrl: process.env.DATABASE_URL, poolSize: 8, prefix: 'vp_test' });
}
