import { Database, PostgresIdempotencyStore } from '@voiceplane/adapter-typeorm';
import { createTestDatabase, TestDatabase } from '@voiceplane/test-env';
import { idempotencyStoreContract } from './idempotency-store.contract';

let db: TestDatabase;
let database: Database;

beforeAll(async () => {
  db = await createTestDatabase();
  database = new Database(db.dataSource);
});
afterAll(async () => db.close());

idempotencyStoreContract('PostgreSQL', async () => {
  await database.query('DELETE FROM idempotency_keys');
  return new PostgresIdempotencyStore(database);
});
