import { ChatappMessage, Conversation } from '@voiceplane/domain';
import { NewOutboxEvent } from '../ports';
import { NewChatappMessage } from './ports';

/** A chat-app message was stored: a customer's, an AI reply, or one sent through the API or an automation. */
export const CHATAPP_MESSAGE_STORED_TOPIC = 'chatapp.message_stored';
/** A chat-app message's delivery status moved. */
export const CHATAPP_MESSAGE_STATUS_TOPIC = 'chatapp.message_status';

export interface ChatappMessageStoredEvent {
  readonly user_id: number;
  readonly conversation_id: string;
  readonly message_id: number;
  readonly chatapp_message_id: number;
  readonly sender_id: number;
  readonly customer_phone: string | null;
  readonly direction: 'inbound' | 'outbound';
  readonly source: NewChatappMessage['source'];
  readonly type: NewChatappMessage['type'];
  readonly body: string | null;
  readonly status: string;
  readonly created_at: string;
}

export interface ChatappMessageStatusEvent {
  readonly user_id: number;
  readonly conversation_id: string;
  readonly message_id: number;
  readonly chatapp_message_id: number;
  readonly status: string;
  readonly error_code: string | null;
  readonly error_message: string | null;
}

export function messageStored(
  conversation: Conversation,
  message: NewChatappMessage,
  chatapp: ChatappMessage,
): NewOutboxEvent {
  const payload: ChatappMessageStoredEvent = {
    user_id: message.userId,
    conversation_id: conversation.uuid,
    message_id: chatapp.messageId,
    chatapp_message_id: chatapp.id,
    sender_id: message.senderId,
    customer_phone: conversation.customerPhone,
    direction: message.direction,
    source: message.source,
    type: message.type,
    body: message.body,
    status: chatapp.status,
    created_at: chatapp.createdAt.toISOString(),
  };
  return { topic: CHATAPP_MESSAGE_STORED_TOPIC, payload };
}

export function messageStatusChanged(conversation: Conversation, message: ChatappMessage): NewOutboxEvent {
  const payload: ChatappMessageStatusEvent = {
    user_id: message.userId,
    conversation_id: conversation.uuid,
    message_id: message.messageId,
    chatapp_message_id: message.id,
    status: message.status,
    error_code: message.errorCode,
    error_message: message.errorMessage,
  };
  return { topic: CHATAPP_MESSAGE_STATUS_TOPIC, payload };
}
