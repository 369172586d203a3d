import { SecretCipher } from '@voiceplane/application';
import { TypeormAutomationRepository, TypeormAutomationRunRepository } from '@voiceplane/adapter-typeorm';
import { useTestDatabase } from '@voiceplane/test-env';
import { automationRunsContract } from './automation-runs.contract';
import { insertUser } from './postgres-fixtures';

const database = useTestDatabase();

automationRunsContract('PostgreSQL', async () => {
  await database().query('DELETE FROM automations');
  return {
    automations: new TypeormAutomationRepository(
      database(),
      new SecretCipher(async () => 'contract-test-key-contract-test-key'),
    ),
    runs: new TypeormAutomationRunRepository(database()),
    newUser: () => insertUser(database()),
  };
});
