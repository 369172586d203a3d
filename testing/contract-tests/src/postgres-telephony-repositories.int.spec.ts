import { TypeormPhoneNumberRepository, TypeormSipTrunkRepository } from '@voiceplane/adapter-typeorm';
import { useTestDatabase } from '@voiceplane/test-env';
import { insertUser } from './postgres-fixtures';
import { telephonyRepositoriesContract } from './telephony-repositories.contract';

const database = useTestDatabase();

telephonyRepositoriesContract('PostgreSQL', async () => {
  const db = database();
  // Renewals are claimed across accounts: no number of an earlier test may be due.
  await db.query('DELETE FROM phone_numbers');
  return {
    numbers: new TypeormPhoneNumberRepository(db),
    trunks: new TypeormSipTrunkRepository(db),
    users: [await insertUser(db), await insertUser(db)],
  };
});
