export { CampaignController } from './campaign-controller';
export { LeadController } from './lead-controller';
