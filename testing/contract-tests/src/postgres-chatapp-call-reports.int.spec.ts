import { TypeormCallRepository, TypeormChatappCallReportRepository } from '@voiceplane/adapter-typeorm';
import { useTestDatabase } from '@voiceplane/test-env';
import { chatappCallReportsContract } from './chatapp-call-reports.contract';
import { insertUser, outboxOf } from './postgres-fixtures';

const database = useTestDatabase();

chatappCallReportsContract('PostgreSQL', async () => {
  const db = database();
  await db.query('DELETE FROM calls');
  return {
    reports: new TypeormChatappCallReportRepository(db),
    calls: new TypeormCallRepository(db, outboxOf(db, { now: () => new Date() })),
    userId: await insertUser(db),
  };
});
