import { token } from '../common/token';
import type { ManageCampaigns } from './manage-campaigns';
import type { ManageLeads } from './manage-leads';
import type { CampaignRepository, LeadRepository } from './ports';

export const CAMPAIGN_TOKENS = {
  CampaignRepository: token<CampaignRepository>('CampaignRepository'),
  LeadRepository: token<LeadRepository>('LeadRepository'),
  ManageCampaigns: token<ManageCampaigns>('ManageCampaigns'),
  ManageLeads: token<ManageLeads>('ManageLeads'),
} as const;
