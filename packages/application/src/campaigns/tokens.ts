import { token } from '../common';
import type { ManageCampaigns } from './manage-campaigns';
import type { ManageLeads } from './manage-leads';
import type { CampaignRepository, LeadRepository } from './ports';
import type { CampaignCallEnds } from './campaign-call-ends';
import type { CampaignDialer } from './campaign-dialer';
import type { ManageDoNotCall } from '../calls';
import type { DoNotCallList } from '../ports';

export const CAMPAIGN_TOKENS = {
  CampaignRepository: token<CampaignRepository>('CampaignRepository'),
  LeadRepository: token<LeadRepository>('LeadRepository'),
  ManageCampaigns: token<ManageCampaigns>('ManageCampaigns'),
  ManageLeads: token<ManageLeads>('ManageLeads'),
  CampaignDialer: token<CampaignDialer>('CampaignDialer'),
  CampaignCallEnds: token<CampaignCallEnds>('CampaignCallEnds'),
  DoNotCallList: token<DoNotCallList>('DoNotCallList'),
  ManageDoNotCall: token<ManageDoNotCall>('ManageDoNotCall'),
} as const;
