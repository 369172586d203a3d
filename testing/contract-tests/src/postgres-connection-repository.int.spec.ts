import { TypeormConnectionRepository } from '@voiceplane/adapter-typeorm';
import { useTestDatabase } from '@voiceplane/test-env';
import { connectionRepositoryContract } from './connection-repository.contract';
import { insertUser } from './postgres-fixtures';

const database = useTestDatabase();

connectionRepositoryContract('PostgreSQL', async () => {
  const db = database();
  return { connections: new TypeormConnectionRepository(db), users: [await insertUser(db), await insertUser(db)] };
});
