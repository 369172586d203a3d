import {
  ChatWindow,
  laterOf,
  openOnCustomerMessage,
  openOnTemplateSent,
  WindowChange,
  WindowEvent,
  windowExpiresAt,
} from '../chatapp/window';
import { MessageSource, MessageType } from './message';

export const CONVERSATION_STATUSES = ['open', 'ended'] as const;
export type ConversationStatus = (typeof CONVERSATION_STATUSES)[number];

/**
 * Where a conversation is held: the chat app (a sender and a customer phone), the embeddable web
 * widget, a developer's `test` chat, or a customer's own channel (`external`, keyed by the
 * customer identifier the caller gives).
 */
export const CONVERSATION_TYPES = ['chatapp', 'widget', 'test', 'external'] as const;
export type ConversationType = (typeof CONVERSATION_TYPES)[number];

/**
 * A chat-app conversation is exactly one per (user, sender, customer phone), reused forever, and
 * holds the chat-app window of that sender and customer. Web chats (`widget`, `test`, `external`)
 * have no sender and no phone: they belong to one assistant from the start.
 */
export interface Conversation {
  readonly id: number;
  readonly uuid: string;
  readonly type: ConversationType;
  readonly userId: number;
  /** Null for web chats. */
  readonly senderId: number | null;
  /** The sender's assistant at the time of the last message; a web chat's own assistant. */
  readonly assistantId: number | null;
  /** Null for web chats. */
  readonly customerPhone: string | null;
  /** Values a web chat was started with (merged by later external replies); null for the chat app. */
  readonly variables: Readonly<Record<string, string>> | null;
  /** The caller's customer identifier of an `external` conversation; null otherwise. */
  readonly externalIdentifier: string | null;
  readonly customerName: string | null;
  readonly status: ConversationStatus;
  readonly aiEnabled: boolean;
  readonly aiDisabledAt: Date | null;
  /** When enable-ai last switched AI back on (not exposed): replies to earlier messages are discarded. */
  readonly aiEnabledAt: Date | null;
  readonly messageCount: number;
  readonly lastMessageAt: Date | null;
  readonly window: ChatWindow;
  readonly endedCount: number;
  readonly endedAt: Date | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** A message stored in the conversation, inbound (`customer`) or outbound and accepted by the chat app. */
export interface RecordedMessage {
  readonly source: Exclude<MessageSource, 'system'>;
  readonly type: MessageType;
  readonly at: Date;
  /** The sender's assistant now (null when none). */
  readonly assistantId: number | null;
  /** `recipient_name` of a template send, or the name the chat app reports for the customer. */
  readonly customerName?: string | null;
}

export type ConversationEvent = WindowEvent | { readonly type: 'conversation_reopened'; readonly at: Date };

export interface ConversationChange {
  readonly next: Conversation;
  readonly events: readonly ConversationEvent[];
}

export interface NewConversation {
  readonly id: number;
  readonly uuid: string;
  readonly userId: number;
  readonly senderId: number;
  readonly customerPhone: string;
}

/** Created by the first successful send or first inbound message; record that message next. */
export function newConversation(fields: NewConversation, now: Date): Conversation {
  return {
    ...fields,
    type: 'chatapp',
    assistantId: null,
    variables: null,
    externalIdentifier: null,
    customerName: null,
    status: 'open',
    aiEnabled: true,
    aiDisabledAt: null,
    aiEnabledAt: null,
    messageCount: 0,
    lastMessageAt: null,
    window: { lastCustomerMessageAt: null, lastTemplateSentAt: null },
    endedCount: 0,
    endedAt: null,
    createdAt: now,
    updatedAt: now,
  };
}

/** `window_expires_at` of the record. */
export const conversationWindowExpiresAt = (conversation: Conversation): Date | null =>
  windowExpiresAt(conversation.window);

/**
 * A new message in either direction: counts, reopens an `ended` conversation (`ai_enabled`
 * unchanged), and moves the window — customer messages and template sends only; freeform
 * and AI replies never extend it.
 */
export function recordMessage(conversation: Conversation, message: RecordedMessage): ConversationChange {
  const { at } = message;
  const reopened = conversation.status === 'ended';
  const windowChange = moveWindow(conversation.window, message);
  const next: Conversation = {
    ...conversation,
    assistantId: message.assistantId,
    customerName: message.customerName ?? conversation.customerName,
    status: 'open',
    endedAt: reopened ? null : conversation.endedAt,
    messageCount: conversation.messageCount + 1,
    lastMessageAt: laterOf(conversation.lastMessageAt, at),
    window: windowChange.next,
    updatedAt: at,
  };
  const events: ConversationEvent[] = reopened ? [{ type: 'conversation_reopened', at }] : [];
  return { next, events: [...events, ...windowChange.events] };
}

/** Template-type messages (the call-permission request included) open the window whoever sent them. */
function moveWindow(window: ChatWindow, message: RecordedMessage): WindowChange {
  if (message.source === 'customer') return openOnCustomerMessage(window, message.at);
  if (message.type === 'template' || message.type === 'voice_call_request')
    return openOnTemplateSent(window, message.at);
  return { next: window, events: [] };
}
