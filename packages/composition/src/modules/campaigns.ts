import {
  CallerLines,
  CampaignCallEnds,
  campaignDialJob,
  CampaignDialer,
  campaignWebhookConsumer,
  ManageCampaigns,
  ManageDoNotCall,
  ManageLeads,
  TOKENS,
  type Token,
} from '@voiceplane/application';
import {
  CampaignController,
  DoNotCallController,
  LeadController,
  SandboxCampaignController,
} from '@voiceplane/adapter-http';
import { TypeormCampaignRepository, TypeormDoNotCallList, TypeormLeadRepository } from '@voiceplane/adapter-typeorm';
import { ApiModule } from './module';

/**
 * Campaigns and leads: their routes, the dialer (a `campaign.dial` job per running campaign on the
 * shared job queue, so any number of workers share the work), the outcome of campaign calls applied
 * where calls end, and — while the voice runtime is the sandbox — the tick route.
 */
export const campaignsModule: ApiModule = ({ container: c, config, database, logger }) => {
  const log = logger.child({ module: 'campaigns' });
  const get = <T>(token: Token<T>): T => c.get(token);
  const lines = () =>
    new CallerLines(
      get(TOKENS.PhoneNumberRepository),
      get(TOKENS.SipTrunkRepository),
      get(TOKENS.VoiceRuntime).platformLine,
    );
  c.bind(TOKENS.CampaignRepository).toConstantValue(new TypeormCampaignRepository(database));
  c.bind(TOKENS.LeadRepository).toConstantValue(new TypeormLeadRepository(database));
  // Read by make_call and chat-app calls too (their modules get it lazily).
  c.bind(TOKENS.DoNotCallList).toConstantValue(new TypeormDoNotCallList(database));
  c.bind(TOKENS.ManageDoNotCall)
    .toDynamicValue(
      () =>
        new ManageDoNotCall(
          {
            uow: get(TOKENS.UnitOfWork),
            list: get(TOKENS.DoNotCallList),
            users: get(TOKENS.UserRepository),
            calls: get(TOKENS.CallRepository),
          },
          get(TOKENS.Clock),
        ),
    )
    .inSingletonScope();
  c.bind(TOKENS.ManageCampaigns)
    .toDynamicValue(
      () =>
        new ManageCampaigns(
          {
            uow: get(TOKENS.UnitOfWork),
            campaigns: get(TOKENS.CampaignRepository),
            leads: get(TOKENS.LeadRepository),
            assistants: get(TOKENS.AssistantRepository),
            users: get(TOKENS.UserRepository),
            phoneNumbers: get(TOKENS.PhoneNumberRepository),
            calls: get(TOKENS.CallRepository),
            outbox: get(TOKENS.Outbox),
            scheduler: get(TOKENS.JobScheduler),
          },
          { lines: lines(), prices: config.callMinutePrices },
          get(TOKENS.Clock),
        ),
    )
    .inSingletonScope();
  c.bind(TOKENS.ManageLeads)
    .toDynamicValue(
      () =>
        new ManageLeads(
          {
            uow: get(TOKENS.UnitOfWork),
            campaigns: get(TOKENS.CampaignRepository),
            leads: get(TOKENS.LeadRepository),
            scheduler: get(TOKENS.JobScheduler),
            doNotCall: get(TOKENS.DoNotCallList),
          },
          get(TOKENS.Clock),
        ),
    )
    .inSingletonScope();
  c.bind(TOKENS.CampaignDialer)
    .toDynamicValue(
      () =>
        new CampaignDialer(
          {
            uow: get(TOKENS.UnitOfWork),
            campaigns: get(TOKENS.CampaignRepository),
            leads: get(TOKENS.LeadRepository),
            outbox: get(TOKENS.Outbox),
            scheduler: get(TOKENS.JobScheduler),
          },
          { makeCall: get(TOKENS.MakeCall), lines: lines() },
          get(TOKENS.Clock),
          log,
        ),
    )
    .inSingletonScope();
  // Read by the call end (voice-calls module) when a campaign call ends.
  c.bind(TOKENS.CampaignCallEnds)
    .toDynamicValue(
      () =>
        new CampaignCallEnds({
          campaigns: get(TOKENS.CampaignRepository),
          leads: get(TOKENS.LeadRepository),
          scheduler: get(TOKENS.JobScheduler),
          outbox: get(TOKENS.Outbox),
        }),
    )
    .inSingletonScope();
  // campaign.* events as deliveries to the campaign assistant's webhook.
  c.bind(TOKENS.EventConsumer)
    .toDynamicValue(() =>
      campaignWebhookConsumer(
        get(TOKENS.UnitOfWork),
        get(TOKENS.ProcessedEvents),
        get(TOKENS.AssistantRepository),
        get(TOKENS.WebhookDeliveries),
      ),
    )
    .inSingletonScope();
  c.bind(TOKENS.JobHandler)
    .toDynamicValue(() => campaignDialJob(get(TOKENS.CampaignDialer), get(TOKENS.JobScheduler), get(TOKENS.Clock)))
    .inSingletonScope();
  const sandbox = config.voiceRuntime === 'sandbox';
  for (const controller of [
    CampaignController,
    LeadController,
    DoNotCallController,
    ...(sandbox ? [SandboxCampaignController] : []),
  ])
    c.bind(controller).toSelf().inSingletonScope();
  return {};
};
