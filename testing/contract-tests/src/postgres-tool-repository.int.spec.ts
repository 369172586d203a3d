import { TypeormToolRepository } from '@voiceplane/adapter-typeorm';
import { useTestDatabase } from '@voiceplane/test-env';
import { toolRepositoryContract } from './tool-repository.contract';
import { insertUser } from './postgres-fixtures';

const database = useTestDatabase();

toolRepositoryContract('PostgreSQL', async () => {
  const db = database();
  await db.query('DELETE FROM tools');
  return { tools: new TypeormToolRepository(db), users: [await insertUser(db), await insertUser(db)] };
});
