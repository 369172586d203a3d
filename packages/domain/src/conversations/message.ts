import { ChatappMessageStatus } from '../chatapp/message-delivery';
import { MediaType } from '../chatapp/media';

export const MESSAGE_SOURCES = ['customer', 'ai', 'api', 'automation', 'system'] as const;
export type MessageSource = (typeof MESSAGE_SOURCES)[number];

export const MESSAGE_TYPES = ['text', 'media', 'template', 'voice_call_request'] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];

export type MessageRole = 'user' | 'assistant' | 'system';
export type MessageDirection = 'inbound' | 'outbound';

/** A function the assistant called while writing a reply, as the chatbot routes show it. */
export interface FunctionCallRecord {
  readonly name: string;
  readonly arguments: unknown;
  readonly result: unknown;
}

/** The conversation's record of a message. */
export interface ConversationMessage {
  readonly id: number;
  readonly conversationId: number;
  readonly direction: MessageDirection;
  readonly source: MessageSource;
  readonly type: MessageType;
  readonly body: string | null;
  readonly mediaUrl: string | null;
  readonly mediaType: MediaType | null;
  readonly filename: string | null;
  readonly templateId: number | null;
  readonly chatappMessageId: number | null;
  readonly messageSid: string | null;
  /** Mirrors the chat-app message; null for system notes. */
  readonly status: ChatappMessageStatus | null;
  readonly errorCode: string | null;
  /** Why voiceplane holds no copy of an inbound file yet (it is retried); absent or null otherwise. */
  readonly mediaError?: string | null;
  /** A web chat's assistant reply: the functions it called on the way (absent or null otherwise). */
  readonly functionCalls?: readonly FunctionCallRecord[] | null;
  readonly createdAt: Date;
}

/** Customers speak as `user`; AI, API and automation messages as `assistant`. */
export function roleOfSource(source: MessageSource): MessageRole {
  if (source === 'customer') return 'user';
  return source === 'system' ? 'system' : 'assistant';
}
