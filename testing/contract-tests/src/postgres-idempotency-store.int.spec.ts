import { PostgresIdempotencyStore } from '@voiceplane/adapter-typeorm';
import { useTestDatabase } from '@voiceplane/test-env';
import { idempotencyStoreContract } from './idempotency-store.contract';

const database = useTestDatabase();

idempotencyStoreContract('PostgreSQL', async () => {
  await database().query('DELETE FROM idempotency_keys');
  return new PostgresIdempotencyStore(database());
});
