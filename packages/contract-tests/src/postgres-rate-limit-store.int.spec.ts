import { Database, PostgresRateLimitStore } from '@voiceplane/adapter-typeorm';
import { createTestDatabase, TestDatabase } from '@voiceplane/test-env';
import { rateLimitStoreContract } from './rate-limit-store.contract';

let db: TestDatabase;
let database: Database;

beforeAll(async () => {
  db = await createTestDatabase();
  database = new Database(db.dataSource);
});
afterAll(async () => db.close());

rateLimitStoreContract('PostgreSQL', async () => {
  await database.query('DELETE FROM rate_limit_counters');
  return new PostgresRateLimitStore(database);
});
