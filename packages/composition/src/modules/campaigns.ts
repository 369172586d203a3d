import { CallerLines, ManageCampaigns, ManageLeads, TOKENS, type Token } from '@voiceplane/application';
import { CampaignController, LeadController } from '@voiceplane/adapter-http';
import { TypeormCampaignRepository, TypeormLeadRepository } from '@voiceplane/adapter-typeorm';
import { ApiModule } from './module';

/** Campaigns and leads: their routes, and the dialer that calls the leads. */
export const campaignsModule: ApiModule = ({ container: c, config, database }) => {
  const get = <T>(token: Token<T>): T => c.get(token);
  c.bind(TOKENS.CampaignRepository).toConstantValue(new TypeormCampaignRepository(database));
  c.bind(TOKENS.LeadRepository).toConstantValue(new TypeormLeadRepository(database));
  c.bind(TOKENS.ManageCampaigns).toDynamicValue(() => new ManageCampaigns(
    {
      uow: get(TOKENS.UnitOfWork), campaigns: get(TOKENS.CampaignRepository), leads: get(TOKENS.LeadRepository), assistants: get(TOKENS.AssistantRepository),
      users: get(TOKENS.UserRepository), phoneNumbers: get(TOKENS.PhoneNumberRepository), calls: get(TOKENS.CallRepository), outbox: get(TOKENS.Outbox),
    },
    {
      lines: new CallerLines(get(TOKENS.PhoneNumberRepository), get(TOKENS.SipTrunkRepository), get(TOKENS.VoiceRuntime).platformLine),
      prices: config.callMinutePrices,
    },
    get(TOKENS.Clock),
  )).inSingletonScope();
  c.bind(TOKENS.ManageLeads).toDynamicValue(() => new ManageLeads(
    { uow: get(TOKENS.UnitOfWork), campaigns: get(TOKENS.CampaignRepository), leads: get(TOKENS.LeadRepository) }, get(TOKENS.Clock),
  )).inSingletonScope();
  for (const controller of [CampaignController, LeadController]) c.bind(controller).toSelf().inSingletonScope();
  return {};
};
