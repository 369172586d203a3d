import { Conversation, conversationWindowExpiresAt, ConversationMessage, roleOfSource } from '@voiceplane/domain';
import { iso, isoOrNull } from '../../presenters/format';

/** A message of a conversation, inbound or outbound, whoever wrote it. */
export function presentConversationMessage(m: ConversationMessage) {
  return {
    id: m.id,
    conversation_id: m.conversationId,
    direction: m.direction,
    source: m.source,
    role: roleOfSource(m.source),
    type: m.type,
    body: m.body,
    media_url: m.mediaUrl,
    media_type: m.mediaType,
    filename: m.filename,
    template_id: m.templateId,
    chatapp_message_id: m.chatappMessageId,
    message_sid: m.messageSid,
    status: m.status,
    error_code: m.errorCode,
    ...(m.type === 'media' && m.direction === 'inbound' ? { media_error: m.mediaError ?? null } : {}),
    ...(m.functionCalls ? { function_calls: m.functionCalls } : {}),
    created_at: iso(m.createdAt),
  };
}

export function presentConversation(c: Conversation) {
  return {
    id: c.id,
    uuid: c.uuid,
    type: c.type,
    sender_id: c.senderId,
    assistant_id: c.assistantId,
    customer_phone: c.customerPhone,
    external_identifier: c.externalIdentifier,
    customer_name: c.customerName,
    status: c.status,
    ai_enabled: c.aiEnabled,
    ai_disabled_at: isoOrNull(c.aiDisabledAt),
    message_count: c.messageCount,
    last_message_at: isoOrNull(c.lastMessageAt),
    last_customer_message_at: isoOrNull(c.window.lastCustomerMessageAt),
    window_expires_at: isoOrNull(conversationWindowExpiresAt(c)),
    ended_count: c.endedCount,
    ended_at: isoOrNull(c.endedAt),
    created_at: iso(c.createdAt),
    updated_at: iso(c.updatedAt),
  };
}
