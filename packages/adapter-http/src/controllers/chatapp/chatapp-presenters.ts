import { ChatappMessage, formatMessagingLimit, MessageTemplate, Sender, SessionStatus } from '@voiceplane/domain';
import { iso, isoOrNull } from '../../presenters/format';

/** The sender object as the API shows it. */
export function presentSender(s: Sender) {
  return {
    id: s.id,
    phone_number: s.phoneNumber,
    display_name: s.displayName,
    status: s.status,
    quality_rating: s.qualityRating,
    messaging_limit: s.messagingLimit,
    messaging_limit_formatted: formatMessagingLimit(s.messagingLimit),
    country_code: s.countryCode,
    assistant_id: s.assistantId,
    calling_enabled: s.callingEnabled,
    status_webhook_url: s.statusWebhookUrl,
    provider: s.provider,
    created_at: iso(s.createdAt),
    updated_at: iso(s.updatedAt),
  };
}

/** The template object as the API shows it (`footer_text` only when set). */
export function presentTemplate(t: MessageTemplate) {
  return {
    id: t.id,
    sender_id: t.senderId,
    name: t.name,
    language: t.language,
    category: t.category,
    status: t.status,
    body_text: t.bodyText,
    ...(t.footerText !== null ? { footer_text: t.footerText } : {}),
    variables: t.variables,
    has_variables: t.variables.length > 0,
    rejection_reason: t.rejectionReason,
    created_at: iso(t.createdAt),
    updated_at: iso(t.updatedAt),
  };
}

/** The chat-app message object as the API shows it. */
export function presentChatappMessage(m: ChatappMessage) {
  return {
    id: m.id,
    message_id: m.messageId,
    sender_id: m.senderId,
    conversation_id: m.conversationId,
    direction: m.direction,
    from: m.from,
    to: m.to,
    message_sid: m.messageSid,
    provider_message_id: m.providerMessageId,
    status: m.status,
    error_code: m.errorCode,
    error_message: m.errorMessage,
    cost: m.cost,
    status_history: m.statusHistory.map((h) => ({ status: h.status, at: iso(h.at) })),
    created_at: iso(m.createdAt),
    updated_at: iso(m.updatedAt),
  };
}

export const SESSION_EXPIRED_TEXT = 'Session expired. Send a template message to reopen the conversation.';
export const NO_CONVERSATION_TEXT = 'No conversation exists with this recipient. Send a template message first.';

export const sessionOpenText = (minutesRemaining: number): string =>
  `Session open (${Math.floor(minutesRemaining / 60)} hr ${minutesRemaining % 60} min remaining). Unlimited free-form messages allowed.`;

function sessionStatusText(s: SessionStatus): string {
  if (s.kind === 'open') return sessionOpenText(s.minutesRemaining);
  return s.kind === 'expired' ? SESSION_EXPIRED_TEXT : NO_CONVERSATION_TEXT;
}

/** The session-status object. */
export function presentSessionStatus(s: SessionStatus) {
  const common = {
    is_open: s.isOpen,
    can_send_freeform: s.canSendFreeform,
    requires_template: s.requiresTemplate,
    message: sessionStatusText(s),
  };
  return s.kind === 'open'
    ? { ...common, minutes_remaining: s.minutesRemaining, expires_at: iso(s.expiresAt) }
    : { ...common, expired_at: isoOrNull(s.expiredAt) };
}
