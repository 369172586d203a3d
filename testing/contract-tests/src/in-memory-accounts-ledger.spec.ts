import {
  InMemoryLedgerRepository,
  InMemoryUnitOfWork,
  InMemoryUserRepository,
  ManualClock,
} from '@voiceplane/adapter-fakes';
import { accountsLedgerContract } from './accounts-ledger.contract';

accountsLedgerContract('in-memory', async () => {
  const clock = new ManualClock(new Date('2030-04-01T09:00:00.000Z'));
  const users = new InMemoryUserRepository(clock);
  return { users, ledger: new InMemoryLedgerRepository(users, clock), uow: new InMemoryUnitOfWork() };
});
