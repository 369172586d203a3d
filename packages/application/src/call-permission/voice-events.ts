import { UnitOfWork } from '../ports';
import { oncePerEvent } from '../events';
import { EventConsumer, ProcessedEvents } from '../events';
import { CHATAPP_CALL_RINGING_TOPIC } from '../calls';
import { VoiceWebhook } from './voice-webhook';

export const CALL_STARTED_CONSUMER = 'chatapp-call-started';

interface RingingMessage {
  readonly call_id: number;
  readonly user_id: number;
  readonly sender_id: number;
  readonly customer_phone: string;
  readonly conversation_id: string | null;
  readonly at: string;
}

/** `call_started` when a chat-app call starts ringing, once per ringing event. */
export function callStartedConsumer(
  uow: UnitOfWork,
  processed: ProcessedEvents,
  voiceWebhook: VoiceWebhook,
): EventConsumer {
  return {
    topicPattern: CHATAPP_CALL_RINGING_TOPIC,
    options: { consumer: CALL_STARTED_CONSUMER, maxRetries: 10, retryDelayMs: 2_000 },
    handle: oncePerEvent(uow, processed, CALL_STARTED_CONSUMER, async (message) => {
      const ringing = message.payload as RingingMessage;
      await voiceWebhook.raise(ringing.user_id, {
        type: 'call_started',
        payload: {
          event: 'call_started',
          sender_id: ringing.sender_id,
          customer_phone: ringing.customer_phone,
          conversation_id: ringing.conversation_id,
          call_id: ringing.call_id,
          timestamp: ringing.at,
        },
        subject: { type: 'call', id: ringing.call_id },
      });
    }),
  };
}
