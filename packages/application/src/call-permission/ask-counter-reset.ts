import { ok, resetAskCounters } from '@voiceplane/domain';
import { UnitOfWork } from '../ports';
import { oncePerEvent } from '../events';
import { EventConsumer, ProcessedEvents } from '../events';
import { CHATAPP_CALL_CONNECTED_TOPIC } from '../calls';
import { CallPermissionRepository } from './ports';

export const ASK_COUNTER_RESET_CONSUMER = 'chatapp-ask-counter-reset';

interface ConnectedMessage {
  readonly sender_id: number;
  readonly customer_phone: string;
  readonly at: string;
}

/** A chat-app call that connected resets the contact's call-permission ask counters. */
export function askCounterResetConsumer(
  uow: UnitOfWork,
  processed: ProcessedEvents,
  permissions: CallPermissionRepository,
): EventConsumer {
  return {
    topicPattern: CHATAPP_CALL_CONNECTED_TOPIC,
    options: { consumer: ASK_COUNTER_RESET_CONSUMER, maxRetries: 10, retryDelayMs: 2_000 },
    handle: oncePerEvent(uow, processed, ASK_COUNTER_RESET_CONSUMER, async (message) => {
      const connected = message.payload as ConnectedMessage;
      await permissions.update(connected.sender_id, connected.customer_phone, async (current) => {
        // A contact never asked has nothing to reset: no row is written for it.
        if (current.asks.length === 0 && current.status === 'none') return ok({ next: null, answer: null });
        return ok({ next: resetAskCounters(current, new Date(connected.at)), answer: null });
      });
    }),
  };
}
