import { TypeormDoNotCallList } from '@voiceplane/adapter-typeorm';
import { useTestDatabase } from '@voiceplane/test-env';
import { doNotCallListContract } from './do-not-call-list.contract';
import { insertUser } from './postgres-fixtures';

const database = useTestDatabase();

doNotCallListContract('PostgreSQL', async () => {
  const db = database();
  return { list: new TypeormDoNotCallList(db), users: [await insertUser(db), await insertUser(db)] };
});
