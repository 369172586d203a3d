export { CampaignController } from './campaign-controller';
export { LeadController } from './lead-controller';
export { SandboxCampaignController } from './sandbox-campaign-controller';
