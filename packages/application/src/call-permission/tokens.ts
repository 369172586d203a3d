import { token } from '../common';
import type { AnswerCallPermission } from './answer-call-permission';
import type { ChatappCallReportRepository } from './chatapp-call-reports';
import type {
  CallPermissionRepository,
  PermissionRequestSender,
  VoiceConversationLookup,
  VoiceSenderLookup,
  VoiceTemplateLookup,
  VoiceWebhookSettingRepository,
} from './ports';
import type { PlaceChatappCall } from './place-chatapp-call';
import type { ReadCallPermission } from './read-call-permission';
import type { RequestCallPermission } from './request-call-permission';
import type { VoiceWebhook } from './voice-webhook';

export const CALL_PERMISSION_TOKENS = {
  CallPermissionRepository: token<CallPermissionRepository>('CallPermissionRepository'),
  ChatappCallReportRepository: token<ChatappCallReportRepository>('ChatappCallReportRepository'),
  VoiceWebhookSettingRepository: token<VoiceWebhookSettingRepository>('VoiceWebhookSettingRepository'),
  VoiceWebhook: token<VoiceWebhook>('VoiceWebhook'),
  AnswerCallPermission: token<AnswerCallPermission>('AnswerCallPermission'),
  VoiceSenderLookup: token<VoiceSenderLookup>('VoiceSenderLookup'),
  VoiceConversationLookup: token<VoiceConversationLookup>('VoiceConversationLookup'),
  VoiceTemplateLookup: token<VoiceTemplateLookup>('VoiceTemplateLookup'),
  PermissionRequestSender: token<PermissionRequestSender>('PermissionRequestSender'),
  PlaceChatappCall: token<PlaceChatappCall>('PlaceChatappCall'),
  ReadCallPermission: token<ReadCallPermission>('ReadCallPermission'),
  RequestCallPermission: token<RequestCallPermission>('RequestCallPermission'),
} as const;
