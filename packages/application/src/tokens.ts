import { ACCOUNT_TOKENS } from './accounts/tokens';
import { ASSISTANT_TOKENS } from './assistants/tokens';
import { AUTOMATION_TOKENS } from './automations/tokens';
import { BILLING_TOKENS } from './billing/tokens';
import { CALL_TOKENS } from './calls/tokens';
import { CALL_PERMISSION_TOKENS } from './call-permission/tokens';
import { EVENT_TOKENS } from './events/tokens';
import { FOLDER_TOKENS } from './folders/tokens';
import { CORE_TOKENS } from './ports/tokens';
import { RATE_LIMIT_TOKENS } from './ratelimit/tokens';
import { TELEPHONY_TOKENS } from './telephony/tokens';
import { TOOL_TOKENS } from './tools/tokens';
import { TOP_UP_TOKENS } from './top-ups/tokens';
import { WEBHOOK_TOKENS } from './webhooks/tokens';
import { CHATAPP_TOKENS } from './chatapp/tokens';
import { CONVERSATION_TOKENS } from './conversations/tokens';
import { CHATAPP_INGRESS_TOKENS } from './chatapp/ingress-tokens';
import { KNOWLEDGE_BASE_TOKENS } from './knowledge-bases/tokens';
import { ACCOUNT_EVENT_TOKENS } from './account-events/tokens';
import { ANALYTICS_TOKENS } from './analytics/tokens';
import { WEB_CHAT_TOKENS } from './web-chat/tokens';
import { CAMPAIGN_TOKENS } from './campaigns/tokens';
import { SMS_TOKENS } from './sms/tokens';

/**
 * Every capability's typed tokens under one name. Each capability declares its own beside its
 * ports (`calls/tokens.ts`, …); the application layer names what it needs, only the composition
 * decides what satisfies it. The type is spelled out so the declaration file names each
 * capability's tokens rather than importing this package's index back.
 */
export const TOKENS: typeof CORE_TOKENS &
  typeof ACCOUNT_TOKENS &
  typeof BILLING_TOKENS &
  typeof RATE_LIMIT_TOKENS &
  typeof TOOL_TOKENS &
  typeof ASSISTANT_TOKENS &
  typeof FOLDER_TOKENS &
  typeof TELEPHONY_TOKENS &
  typeof WEBHOOK_TOKENS &
  typeof EVENT_TOKENS &
  typeof CALL_TOKENS &
  typeof AUTOMATION_TOKENS &
  typeof CHATAPP_TOKENS &
  typeof CONVERSATION_TOKENS &
  typeof CHATAPP_INGRESS_TOKENS &
  typeof CALL_PERMISSION_TOKENS &
  typeof TOP_UP_TOKENS &
  typeof KNOWLEDGE_BASE_TOKENS &
  typeof ACCOUNT_EVENT_TOKENS &
  typeof ANALYTICS_TOKENS &
  typeof WEB_CHAT_TOKENS &
  typeof CAMPAIGN_TOKENS &
  typeof SMS_TOKENS = {
  ...ACCOUNT_EVENT_TOKENS,
  ...ANALYTICS_TOKENS,
  ...WEB_CHAT_TOKENS,
  ...KNOWLEDGE_BASE_TOKENS,
  ...CORE_TOKENS,
  ...ACCOUNT_TOKENS,
  ...BILLING_TOKENS,
  ...RATE_LIMIT_TOKENS,
  ...TOOL_TOKENS,
  ...ASSISTANT_TOKENS,
  ...FOLDER_TOKENS,
  ...TELEPHONY_TOKENS,
  ...WEBHOOK_TOKENS,
  ...EVENT_TOKENS,
  ...CALL_TOKENS,
  ...AUTOMATION_TOKENS,
  ...CHATAPP_TOKENS,
  ...CONVERSATION_TOKENS,
  ...CHATAPP_INGRESS_TOKENS,
  ...CALL_PERMISSION_TOKENS,
  ...TOP_UP_TOKENS,
  ...CAMPAIGN_TOKENS,
  ...SMS_TOKENS,
};

export {
  ACCOUNT_TOKENS,
  ASSISTANT_TOKENS,
  AUTOMATION_TOKENS,
  BILLING_TOKENS,
  CALL_PERMISSION_TOKENS,
  CALL_TOKENS,
  CORE_TOKENS,
  EVENT_TOKENS,
  FOLDER_TOKENS,
  RATE_LIMIT_TOKENS,
  TELEPHONY_TOKENS,
  TOOL_TOKENS,
  TOP_UP_TOKENS,
  WEBHOOK_TOKENS,
};
export { CHATAPP_TOKENS, CHATAPP_INGRESS_TOKENS, CONVERSATION_TOKENS, WEB_CHAT_TOKENS, CAMPAIGN_TOKENS, SMS_TOKENS };
export { token, type Token } from './common/token';
