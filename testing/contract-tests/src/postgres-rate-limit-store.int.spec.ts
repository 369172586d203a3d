import { PostgresRateLimitStore } from '@voiceplane/adapter-typeorm';
import { useTestDatabase } from '@voiceplane/test-env';
import { rateLimitStoreContract } from './rate-limit-store.contract';

const database = useTestDatabase();

rateLimitStoreContract('PostgreSQL', async () => {
  await database().query('DELETE FROM rate_limit_counters');
  return new PostgresRateLimitStore(database());
});
