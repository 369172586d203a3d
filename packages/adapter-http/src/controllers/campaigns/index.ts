export { CampaignController } from './campaign-controller';
export { LeadController } from './lead-controller';
export { SandboxCampaignController } from './sandbox-campaign-controller';
export { DoNotCallController } from './do-not-call-controller';
