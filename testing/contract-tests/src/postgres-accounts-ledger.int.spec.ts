import { TypeormLedgerRepository, TypeormUserRepository } from '@voiceplane/adapter-typeorm';
import { useTestDatabase } from '@voiceplane/test-env';
import { accountsLedgerContract } from './accounts-ledger.contract';

const database = useTestDatabase();

accountsLedgerContract('PostgreSQL', async () => {
  const db = database();
  await db.query('DELETE FROM ledger_entries');
  await db.query('DELETE FROM users');
  return { users: new TypeormUserRepository(db), ledger: new TypeormLedgerRepository(db), uow: db };
});
