import type { ChatappCallingLines } from '../chatapp';
import { AssistantRepository } from '../assistants';
import { Clock } from '../ports';
import { UnitOfWork } from '../ports';
import { EventConsumer, JobScheduler, ProcessedEvents, WorkLogger } from '../events';
import { CallRepository, CallToPlace, VoiceRuntime } from '../calls';
import { CALL_DISPATCH_WATCHDOG_JOB, DISPATCH_WATCHDOG_MS } from '../calls';
import { RecordCallEvent } from '../calls';
import { CHATAPP_CALL_QUEUED_TOPIC } from './place-chatapp-call';

export const CHATAPP_CALL_DISPATCH_CONSUMER = 'chatapp-call-dispatch';

interface QueuedMessage {
  readonly call_id: number;
}

export interface ChatappCallDispatchDeps {
  readonly uow: UnitOfWork;
  readonly processed: ProcessedEvents;
  readonly calls: CallRepository;
  readonly assistants: AssistantRepository;
  readonly runtime: VoiceRuntime;
  readonly events: RecordCallEvent;
  /** Re-arms the dispatch watchdog (the claim's deadline). */
  readonly scheduler: JobScheduler;
  readonly clock: Clock;
  readonly log: WorkLogger;
  /** Null: the sandbox, whose calls need no calling line. */
  readonly callingLines?: ChatappCallingLines | null;
}

/**
 * Places a queued chat-app call through the voice runtime with the sender's assistant, at most once
 * per call, with no transaction open while the runtime answers:
 *
 * 1. A short transaction claims the dispatch: the queued event is recorded as processed (a
 *    redelivery finds it and does nothing, so the call is never placed twice) and the dispatch
 *    watchdog is re-armed as the claim's deadline. A call that left `queued` meanwhile (failed by
 *    the watchdog) is left alone; a sender that lost its calling line fails the call here.
 * 2. The runtime is asked with nothing open.
 * 3. A refusal ends the call as `failed` (no `call_started`) in a second short transaction; a
 *    runtime that took the call reports ringing, answer and end through the runtime ingress.
 *
 * A crash after the claim (before the runtime was asked, or before a refusal was written) leaves
 * the call `queued`: the watchdog fails it as `dispatch_lost` at the deadline, unless the runtime
 * reported on it meanwhile.
 */
export function chatappCallDispatchConsumer(deps: ChatappCallDispatchDeps): EventConsumer {
  const { uow, processed, calls, assistants, runtime, events, scheduler, clock, log } = deps;
  const callingLines = deps.callingLines ?? null;
  return {
    topicPattern: CHATAPP_CALL_QUEUED_TOPIC,
    options: { consumer: CHATAPP_CALL_DISPATCH_CONSUMER, maxRetries: 5, retryDelayMs: 2_000 },
    handle: async (message) => {
      const claimed = await uow.transaction(async (): Promise<CallToPlace | null> => {
        if (!(await processed.record(CHATAPP_CALL_DISPATCH_CONSUMER, message.id))) return null;
        const call = await calls.findById((message.payload as QueuedMessage).call_id);
        if (call === null || call.status !== 'queued') return null;
        const assistant = await assistants.findOwned(call.userId, call.assistantId);
        // On a real chat app the call leaves through the sender's own trunk to the chat app's SIP edge.
        const trunkId =
          callingLines === null || call.senderId === null ? null : await callingLines.trunkOf(call.senderId);
        if (callingLines !== null && trunkId === null) {
          log.warn({ callId: call.id }, 'the sender of a chat-app call lost its calling line');
          await events.failUnplaced(call.id, 'dispatch_failed');
          return null;
        }
        await scheduler.schedule({
          kind: CALL_DISPATCH_WATCHDOG_JOB,
          key: `call-dispatch:${call.id}`,
          payload: { call_id: call.id },
          runAt: new Date(clock.now().getTime() + DISPATCH_WATCHDOG_MS),
        });
        return {
          callId: call.id,
          userId: call.userId,
          customerPhone: call.customerPhone,
          line: {
            phoneNumberId: null,
            phoneNumber: call.assistantPhone ?? '',
            sip: trunkId === null ? null : { outboundTrunkId: trunkId, callingFormat: '+e164', outboundProxy: false },
          },
          ringingTimeSeconds: assistant?.ringingTime ?? 30,
          maxDurationSeconds: assistant?.maxDuration ?? 600,
        };
      });
      if (claimed === null) return;
      try {
        await runtime.placeCall(claimed);
      } catch (e) {
        log.warn({ err: e, callId: claimed.callId }, 'the voice runtime refused a chat-app call');
        await events.failUnplaced(claimed.callId, 'dispatch_failed');
      }
    },
  };
}
