import { token } from '../shared/token';
import type { AnswerCallPermission } from './answer-call-permission';
import type { CallPermissionRepository, VoiceWebhookSettingRepository } from './ports';
import type { VoiceWebhook } from './voice-webhook';

export const CALL_PERMISSION_TOKENS = {
  CallPermissionRepository: token<CallPermissionRepository>('CallPermissionRepository'),
  VoiceWebhookSettingRepository: token<VoiceWebhookSettingRepository>('VoiceWebhookSettingRepository'),
  VoiceWebhook: token<VoiceWebhook>('VoiceWebhook'),
  AnswerCallPermission: token<AnswerCallPermission>('AnswerCallPermission'),
} as const;
