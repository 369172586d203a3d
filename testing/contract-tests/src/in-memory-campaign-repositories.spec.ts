import {
  InMemoryCallRepository,
  InMemoryCampaignRepository,
  InMemoryCampaignStore,
  InMemoryLeadRepository,
  InMemoryOutbox,
} from '@voiceplane/adapter-fakes';
import { campaignRepositoriesContract } from './campaign-repositories.contract';

campaignRepositoriesContract('in-memory', async () => {
  const store = new InMemoryCampaignStore(new InMemoryCallRepository(new InMemoryOutbox()));
  return { campaigns: new InMemoryCampaignRepository(store), leads: new InMemoryLeadRepository(store), users: [1, 2] };
});
