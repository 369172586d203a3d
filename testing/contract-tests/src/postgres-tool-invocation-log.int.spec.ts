import { TypeormToolInvocationLog } from '@voiceplane/adapter-typeorm';
import { useTestDatabase } from '@voiceplane/test-env';
import { insertUser } from './postgres-fixtures';
import { toolInvocationLogContract } from './tool-invocation-log.contract';

const database = useTestDatabase();

toolInvocationLogContract('PostgreSQL', async () => {
  const db = database();
  return { log: new TypeormToolInvocationLog(db), userId: await insertUser(db) };
});
