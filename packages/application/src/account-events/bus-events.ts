import { AccountEvent, AccountEventType } from '@voiceplane/domain';
import { BusMessage } from '../ports';
import { CALL_ENDED_TOPIC, CallEndedEvent } from '../calls';
import { CALL_STARTED_TOPIC, CallStartedEvent } from '../calls';
import { CONVERSATION_ENDED_TOPIC } from '../conversations';
import {
  CHATAPP_MESSAGE_STATUS_TOPIC,
  CHATAPP_MESSAGE_STORED_TOPIC,
  ChatappMessageStatusEvent,
  ChatappMessageStoredEvent,
} from '../chatapp';

/** The bus topics an account's event stream is made of. */
export const ACCOUNT_EVENT_TOPICS = [
  CHATAPP_MESSAGE_STORED_TOPIC,
  CHATAPP_MESSAGE_STATUS_TOPIC,
  CONVERSATION_ENDED_TOPIC,
  CALL_STARTED_TOPIC,
  CALL_ENDED_TOPIC,
] as const;

interface ConversationEndedMessage {
  readonly user_id: number;
  readonly assistant_id: number | null;
  readonly conversation: {
    readonly conversation_id: string;
    readonly message_count: number;
    readonly customer_phone: string;
  };
}

type Shown = { readonly type: AccountEventType; readonly data: Readonly<Record<string, unknown>> };

/**
 * What each topic shows on the stream. Only what the account's own pages show is passed on: a
 * call's transcript and variables stay behind the call's own route.
 */
const SHOWN: Readonly<Record<(typeof ACCOUNT_EVENT_TOPICS)[number], (payload: never) => Shown>> = {
  [CHATAPP_MESSAGE_STORED_TOPIC]: (m: ChatappMessageStoredEvent) => ({
    type: m.direction === 'inbound' ? 'message.received' : m.source === 'ai' ? 'message.ai_reply' : 'message.sent',
    data: {
      conversation_id: m.conversation_id,
      message_id: m.message_id,
      chatapp_message_id: m.chatapp_message_id,
      sender_id: m.sender_id,
      customer_phone: m.customer_phone,
      direction: m.direction,
      source: m.source,
      type: m.type,
      body: m.body,
      status: m.status,
      created_at: m.created_at,
    },
  }),
  [CHATAPP_MESSAGE_STATUS_TOPIC]: (m: ChatappMessageStatusEvent) => ({
    type: 'message.status',
    data: {
      conversation_id: m.conversation_id,
      message_id: m.message_id,
      chatapp_message_id: m.chatapp_message_id,
      status: m.status,
      error_code: m.error_code,
      error_message: m.error_message,
    },
  }),
  [CONVERSATION_ENDED_TOPIC]: (m: ConversationEndedMessage) => ({
    type: 'conversation.ended',
    data: {
      conversation_id: m.conversation.conversation_id,
      assistant_id: m.assistant_id,
      message_count: m.conversation.message_count,
      customer_phone: m.conversation.customer_phone,
    },
  }),
  [CALL_STARTED_TOPIC]: (m: CallStartedEvent) => ({
    type: 'call.started',
    data: {
      call_id: m.call_id,
      assistant_id: m.assistant_id,
      direction: m.direction,
      channel: m.channel,
      customer_phone: m.customer_phone,
    },
  }),
  [CALL_ENDED_TOPIC]: (m: CallEndedEvent) => ({
    type: 'call.ended',
    data: {
      call_id: m.call_id,
      assistant_id: m.assistant_id,
      direction: m.direction,
      channel: m.channel,
      customer_phone: m.customer_phone,
      status: m.status,
      answered: m.answered,
      duration: typeof m.call.duration === 'number' ? m.call.duration : null,
    },
  }),
};

const isTopic = (topic: string): topic is keyof typeof SHOWN => Object.prototype.hasOwnProperty.call(SHOWN, topic);

/** The stream's event for a bus message, or null for a topic (or a payload without an account) it does not show. */
export function accountEventOf(message: BusMessage): AccountEvent | null {
  if (!isTopic(message.topic)) return null;
  const payload = message.payload as { user_id?: unknown } | null;
  const userId = payload?.user_id;
  if (typeof userId !== 'number' || !Number.isSafeInteger(userId) || userId <= 0) return null;
  const shown = SHOWN[message.topic](payload as never);
  const at = Date.parse(message.occurredAt);
  return { id: message.id, type: shown.type, userId, at: Number.isFinite(at) ? at : 0, data: shown.data };
}
