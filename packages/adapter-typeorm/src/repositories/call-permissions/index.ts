export { TypeormCallPermissionRepository } from './call-permission-repository';
export { TypeormVoiceWebhookSettingRepository } from './voice-webhook-setting-repository';
