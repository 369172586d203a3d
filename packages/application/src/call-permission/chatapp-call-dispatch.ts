import type { ChatappCallingLines } from '../chatapp/calling-lines';
import { AssistantRepository } from '../assistants/ports';
import { UnitOfWork } from '../ports/unit-of-work';
import { oncePerEvent } from '../events/consumers';
import { EventConsumer, ProcessedEvents, WorkLogger } from '../events/ports';
import { CallRepository, VoiceRuntime } from '../calls/ports';
import { RecordCallEvent } from '../calls/record-call-event';
import { CHATAPP_CALL_QUEUED_TOPIC } from './place-chatapp-call';

export const CHATAPP_CALL_DISPATCH_CONSUMER = 'chatapp-call-dispatch';

interface QueuedMessage {
  readonly call_id: number;
}

/**
 * Places a queued chat-app call through the voice runtime with the sender's assistant, once per
 * queued event. A call that left `queued` meanwhile (failed by the watchdog) is left alone; a
 * refused hand-over ends it as `failed` (no `call_started`).
 */
export function chatappCallDispatchConsumer(
  uow: UnitOfWork, processed: ProcessedEvents, calls: CallRepository, assistants: AssistantRepository, runtime: VoiceRuntime,
  events: RecordCallEvent, log: WorkLogger, callingLines: ChatappCallingLines | null = null,
): EventConsumer {
  return {
    topicPattern: CHATAPP_CALL_QUEUED_TOPIC,
    options: { consumer: CHATAPP_CALL_DISPATCH_CONSUMER, maxRetries: 5, retryDelayMs: 2_000 },
    handle: oncePerEvent(uow, processed, CHATAPP_CALL_DISPATCH_CONSUMER, async (message) => {
      const call = await calls.findById((message.payload as QueuedMessage).call_id);
      if (call === null || call.status !== 'queued') return;
      const assistant = await assistants.findOwned(call.userId, call.assistantId);
      // On a real chat app the call leaves through the sender's own trunk to the chat app's SIP edge.
      const trunkId = callingLines === null || call.senderId === null ? null : await callingLines.trunkOf(call.senderId);
      if (callingLines !== null && trunkId === null) {
        log.warn({ callId: call.id }, 'the sender of a chat-app call lost its calling line');
        await events.failUnplaced(call.id, 'dispatch_failed');
        return;
      }
      try {
        await runtime.placeCall({
          callId: call.id, userId: call.userId, customerPhone: call.customerPhone,
          line: {
            phoneNumberId: null, phoneNumber: call.assistantPhone ?? '',
            sip: trunkId === null ? null : { outboundTrunkId: trunkId, callingFormat: '+e164', outboundProxy: false },
          },
          ringingTimeSeconds: assistant?.ringingTime ?? 30, maxDurationSeconds: assistant?.maxDuration ?? 600,
        });
      } catch (e) {
        log.warn({ err: e, callId: call.id }, 'the voice runtime refused a chat-app call');
        await events.failUnplaced(call.id, 'dispatch_failed');
      }
    }),
  };
}
