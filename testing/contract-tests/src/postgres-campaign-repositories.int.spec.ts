import { TypeormCampaignRepository, TypeormLeadRepository } from '@voiceplane/adapter-typeorm';
import { useTestDatabase } from '@voiceplane/test-env';
import { campaignRepositoriesContract } from './campaign-repositories.contract';
import { insertUser } from './postgres-fixtures';

const database = useTestDatabase();

campaignRepositoriesContract('PostgreSQL', async () => {
  const db = database();
  return {
    campaigns: new TypeormCampaignRepository(db),
    leads: new TypeormLeadRepository(db),
    users: [await insertUser(db), await insertUser(db)],
  };
});
