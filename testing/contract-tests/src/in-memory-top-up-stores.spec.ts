import {
  InMemoryArmedBillingFaults,
  InMemoryAutoRechargeRepository,
  InMemoryBillingInbox,
  InMemoryBillingProfileRepository,
  InMemoryTopUpRepository,
  InMemoryUnitOfWork,
} from '@voiceplane/adapter-fakes';
import { topUpStoresContract } from './top-up-repositories.contract';

topUpStoresContract('in-memory', async () => {
  let account = 0;
  return {
    topUps: new InMemoryTopUpRepository(),
    recharges: new InMemoryAutoRechargeRepository(),
    profiles: new InMemoryBillingProfileRepository(),
    inbox: new InMemoryBillingInbox(),
    faults: new InMemoryArmedBillingFaults(),
    uow: new InMemoryUnitOfWork(),
    account: async () => (account += 1),
  };
});
