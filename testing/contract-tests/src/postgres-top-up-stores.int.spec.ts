import {
  PostgresArmedBillingFaults,
  TypeormAutoRechargeRepository,
  TypeormBillingInbox,
  TypeormBillingProfileRepository,
  TypeormTopUpRepository,
} from '@voiceplane/adapter-typeorm';
import { useTestDatabase } from '@voiceplane/test-env';
import { insertUser } from './postgres-fixtures';
import { topUpStoresContract } from './top-up-repositories.contract';

const database = useTestDatabase();

topUpStoresContract('PostgreSQL', async () => {
  const db = database();
  return {
    topUps: new TypeormTopUpRepository(db),
    recharges: new TypeormAutoRechargeRepository(db),
    profiles: new TypeormBillingProfileRepository(db),
    inbox: new TypeormBillingInbox(db),
    faults: new PostgresArmedBillingFaults(db),
    uow: db,
    account: () => insertUser(db),
  };
});
