import { applyRuntimeEvent, CallOutcome, CallStatus, err, ok, Result, TranscriptItem } from '@voiceplane/domain';
import { Clock } from '../ports/clock';
import { Outbox } from '../ports/outbox';
import { UnitOfWork } from '../ports/unit-of-work';
import { EndCall } from './end-call';
import { Call, CallEventAnswer, CallEventRefusal, CallRepository } from './ports';

/**
 * Outbox topic raised when a chat-app call starts ringing, for the chat-app voice capability's
 * `call_started` event (CONTRACT §7.5, §9.6). Payload: `{call_id, user_id, sender_id,
 * customer_phone, conversation_id, at}`.
 */
export const CHATAPP_CALL_RINGING_TOPIC = 'call.chatapp_ringing';

export type RuntimeEvent =
  | { readonly type: 'ringing' }
  | { readonly type: 'answered' }
  | { readonly type: 'transcript'; readonly items: readonly TranscriptItem[] }
  | { readonly type: 'ended'; readonly outcome: CallOutcome };

export interface RuntimeEventReport {
  /** Unique per call; a repeated id gets the first answer and changes nothing. */
  readonly eventId: string;
  /** When it happened at the runtime; null: when it is received. */
  readonly occurredAt: Date | null;
  readonly event: RuntimeEvent;
}

/**
 * The voice-runtime ingress (CONTRACT §7.5): applies lifecycle events to a call under a row lock,
 * once per event id. Refused events are not remembered: they changed nothing, so a retry with the
 * same id is judged again against the call as it is then.
 */
export class RecordCallEvent {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly calls: CallRepository,
    private readonly endCall: EndCall,
    private readonly outbox: Outbox,
    private readonly clock: Clock,
  ) {}

  record(callId: number, report: RuntimeEventReport): Promise<Result<CallEventAnswer, CallEventRefusal>> {
    return this.uow.transaction(async () => {
      const call = await this.calls.lock(callId);
      if (call === null) return err({ code: 'call_not_found' as const });
      const earlier = await this.calls.findRuntimeEvent(callId, report.eventId);
      if (earlier !== null) return ok({ callId, status: earlier.status, duplicate: true });
      const { event } = report;
      const transition = applyRuntimeEvent(call.status, event.type, event.type === 'ended' ? event.outcome.status : undefined);
      if (!transition.ok) return transition;
      const now = this.clock.now();
      const status = transition.value.kind === 'moved' ? await this.apply(call, event, report.occurredAt ?? now, now) : call.status;
      await this.calls.recordRuntimeEvent(callId, report.eventId, { type: event.type, status }, now);
      return ok({ callId, status, duplicate: false });
    });
  }

  /**
   * Ends a call the runtime never took (refused dispatch, lost dispatch) as `failed` — only while it
   * is still `initiated`, so a call the runtime did report on is left to the runtime.
   */
  failUnplaced(callId: number, reason: string): Promise<boolean> {
    return this.uow.transaction(async () => {
      const call = await this.calls.lock(callId);
      if (call === null || call.status !== 'initiated') return false;
      const now = this.clock.now();
      await this.endCall.finish(call, { status: 'failed', endedReason: reason }, now, now);
      return true;
    });
  }

  private async apply(call: Call, event: RuntimeEvent, at: Date, now: Date): Promise<CallStatus> {
    switch (event.type) {
      case 'ringing':
        await this.calls.update(call.id, { status: 'ringing' }, now);
        if (call.channel === 'chatapp') {
          await this.outbox.add([{
            topic: CHATAPP_CALL_RINGING_TOPIC,
            payload: { call_id: call.id, user_id: call.userId, sender_id: call.senderId, customer_phone: call.customerPhone, conversation_id: call.conversationId, at: at.toISOString() },
          }]);
        }
        return 'ringing';
      case 'answered':
        await this.calls.update(call.id, { status: 'in-progress', answeredAt: at }, now);
        return 'in-progress';
      case 'transcript':
        // The call is locked: appending to what was read is safe.
        await this.calls.update(call.id, { transcript: [...call.transcript, ...event.items] }, now);
        return call.status;
      case 'ended':
        return (await this.endCall.finish(call, event.outcome, at, now)).status;
    }
  }
}
