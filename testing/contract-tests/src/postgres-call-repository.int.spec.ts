import { TypeormCallRepository } from '@voiceplane/adapter-typeorm';
import { useTestDatabase } from '@voiceplane/test-env';
import { callRepositoryContract } from './call-repository.contract';
import { insertUser, outboxEvents, outboxOf } from './postgres-fixtures';

const database = useTestDatabase();

callRepositoryContract('PostgreSQL', async () => {
  const db = database();
  await db.query('DELETE FROM calls');
  await db.query('DELETE FROM outbox_events');
  return {
    calls: new TypeormCallRepository(db, outboxOf(db, { now: () => new Date() })),
    users: [await insertUser(db), await insertUser(db)],
    outbox: () => outboxEvents(db),
  };
});
