import { TypeormAssistantRepository, TypeormToolRepository } from '@voiceplane/adapter-typeorm';
import { useTestDatabase } from '@voiceplane/test-env';
import { assistantRepositoryContract } from './assistant-repository.contract';
import { insertUser, outboxEvents, outboxOf } from './postgres-fixtures';

const database = useTestDatabase();

assistantRepositoryContract('PostgreSQL', async () => {
  const db = database();
  await db.query('DELETE FROM assistants');
  await db.query('DELETE FROM outbox_events');
  let counter = 0;
  const inserted = async (sql: string, params: unknown[]) =>
    Number((await db.query<{ id: string }>(sql, params))[0].id);
  return {
    assistants: new TypeormAssistantRepository(db, outboxOf(db, { now: () => new Date() })),
    tools: new TypeormToolRepository(db),
    users: [await insertUser(db), await insertUser(db)],
    outbox: () => outboxEvents(db),
    own: async (userId, kind) => {
      counter++;
      if (kind === 'phone_number') {
        return inserted(
          `INSERT INTO phone_numbers (user_id, phone_number, type, country_code) VALUES ($1, $2, 'purchased', 'US') RETURNING id`,
          [userId, `+1415555${String(counter).padStart(4, '0')}`],
        );
      }
      return inserted(
        `INSERT INTO ${kind === 'folder' ? 'folders' : 'labels'} (user_id, name) VALUES ($1, $2) RETURNING id`,
        [userId, `${kind}-${counter}`],
      );
    },
  };
});
