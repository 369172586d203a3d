import {
  ChatappMessage,
  ChatappMessageStatus,
  ConversationMessage,
  FunctionCallRecord,
  MediaType,
  MessageSource,
  MessageType,
  StatusHistoryEntry,
} from '@voiceplane/domain';
import type { ChatappMessageRecord, ConversationMessageRecord } from '../../records';
import { num, numOrNull } from '../rows';

/** A conversation message with its delivery record: the status is the delivery record's, when it has one. */
export const MESSAGE_SELECT = `
  SELECT m.id, m.conversation_id, m.direction, m.source, m.type, m.body, m.media_url, m.media_type, m.filename, m.template_id,
         c.id AS chatapp_message_id, c.message_sid, COALESCE(c.status, m.status) AS status, COALESCE(c.error_code, m.error_code) AS error_code,
         m.media_error, m.function_calls, m.created_at
    FROM conversation_messages m LEFT JOIN chatapp_messages c ON c.message_id = m.id`;

/**
 * What MESSAGE_SELECT reads: every column of the message, its delivery record's id and sid (LEFT
 * JOIN: null without one), and `status` and `error_code` taken from the delivery record first.
 */
export type MessageRow = ConversationMessageRecord & { chatapp_message_id: string | null; message_sid: string | null };

export function toConversationMessage(r: MessageRow): ConversationMessage {
  return {
    id: num(r.id),
    conversationId: num(r.conversation_id),
    direction: r.direction as ConversationMessage['direction'],
    source: r.source as MessageSource,
    type: r.type as MessageType,
    body: r.body ?? null,
    mediaUrl: r.media_url ?? null,
    mediaType: (r.media_type as MediaType | null) ?? null,
    filename: r.filename ?? null,
    templateId: numOrNull(r.template_id),
    chatappMessageId: numOrNull(r.chatapp_message_id),
    messageSid: r.message_sid ?? null,
    status: (r.status as ChatappMessageStatus | null) ?? null,
    errorCode: r.error_code ?? null,
    mediaError: r.media_error ?? null,
    ...(r.function_calls ? { functionCalls: r.function_calls as FunctionCallRecord[] } : {}),
    createdAt: new Date(r.created_at),
  };
}

export const CHATAPP_COLUMNS = `id, user_id, message_id, sender_id, conversation_id, direction, from_phone, to_phone, message_sid, provider_message_id,
  status, error_code, error_message, cost, status_history, created_at, updated_at`;

/** CHATAPP_COLUMNS: every column of `chatapp_messages` but `from_allowance`. */
export type ChatappMessageRow = Omit<ChatappMessageRecord, 'from_allowance'>;

export function toChatappMessage(r: ChatappMessageRow): ChatappMessage {
  return {
    id: num(r.id),
    userId: num(r.user_id),
    messageId: num(r.message_id),
    senderId: num(r.sender_id),
    conversationId: num(r.conversation_id),
    direction: r.direction as ChatappMessage['direction'],
    from: r.from_phone,
    to: r.to_phone,
    messageSid: r.message_sid,
    providerMessageId: r.provider_message_id ?? null,
    status: r.status as ChatappMessageStatus,
    errorCode: r.error_code ?? null,
    errorMessage: r.error_message ?? null,
    cost: num(r.cost),
    statusHistory: (r.status_history as { status: StatusHistoryEntry['status']; at: string }[]).map((h) => ({
      status: h.status,
      at: new Date(h.at),
    })),
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
  };
}
