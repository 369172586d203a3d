import { TypeormCallAnalyticsRepository, TypeormCallRepository } from '@voiceplane/adapter-typeorm';
import { useTestDatabase } from '@voiceplane/test-env';
import { callAnalyticsContract } from './call-analytics.contract';
import { insertUser, outboxOf } from './postgres-fixtures';

const database = useTestDatabase();

callAnalyticsContract('PostgreSQL', async () => {
  const db = database();
  await db.query('DELETE FROM calls');
  return {
    analytics: new TypeormCallAnalyticsRepository(db),
    calls: new TypeormCallRepository(db, outboxOf(db, { now: () => new Date() })),
    users: [await insertUser(db), await insertUser(db)],
  };
});
