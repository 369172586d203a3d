import { PostgresSandboxSmsState, TypeormSmsMessageRepository } from '@voiceplane/adapter-typeorm';
import { useTestDatabase } from '@voiceplane/test-env';
import { insertUser } from './postgres-fixtures';
import { smsRepositoriesContract } from './sms-repositories.contract';

const database = useTestDatabase();

smsRepositoriesContract('PostgreSQL', async () => {
  const db = database();
  return {
    messages: new TypeormSmsMessageRepository(db),
    sandbox: new PostgresSandboxSmsState(db),
    users: [await insertUser(db), await insertUser(db)],
  };
});
