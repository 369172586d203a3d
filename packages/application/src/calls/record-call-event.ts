import {
  appendedTranscript,
  applyRuntimeEvent,
  Call,
  CallOutcome,
  CallStatus,
  err,
  evaluatedConversationVariables,
  InvalidTransition,
  ok,
  Result,
  TranscriptItem,
} from '@voiceplane/domain';
import { CatalogRepository } from '../assistants';
import { textModelName } from '../conversation-policy';
import { ReplyGenerator } from '../conversation-policy';
import { WorkLogger } from '../events';
import { Clock } from '../ports';
import { EndCall } from './end-call';
import { CallChange, CallEventAnswer, CallEventRefusal, CallRepository } from './ports';

/**
 * Outbox topic raised when a chat-app call starts ringing, for the chat-app voice capability's
 * `call_started` event. Payload: `{call_id, user_id, sender_id,
 * customer_phone, conversation_id, at}`.
 */
export const CHATAPP_CALL_RINGING_TOPIC = 'call.chatapp_ringing';

/**
 * Outbox topic raised when a chat-app call connects (reaches `in-progress`): the contact's
 * call-permission ask counters reset. Payload: `{call_id, sender_id, customer_phone, at}`.
 */
export const CHATAPP_CALL_CONNECTED_TOPIC = 'call.chatapp_connected';

/**
 * Outbox topic raised when any call is answered (reaches `in-progress`), for the account's event
 * stream. Payload: {@link CallStartedEvent}.
 */
export const CALL_STARTED_TOPIC = 'call.started';

export interface CallStartedEvent {
  readonly call_id: number;
  readonly user_id: number;
  readonly assistant_id: number;
  readonly direction: Call['direction'];
  readonly channel: Call['channel'];
  readonly customer_phone: string;
  readonly at: string;
}

const callStarted = (call: Call, at: Date): { topic: string; payload: CallStartedEvent } => ({
  topic: CALL_STARTED_TOPIC,
  payload: {
    call_id: call.id,
    user_id: call.userId,
    assistant_id: call.assistantId,
    direction: call.direction,
    channel: call.channel,
    customer_phone: call.customerPhone,
    at: at.toISOString(),
  },
});

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

/** The evaluator conversations use (the assistant's language model), for calls the runtime did not evaluate. */
export interface CallEvaluator {
  readonly generator: ReplyGenerator;
  readonly catalog: CatalogRepository;
  readonly log: WorkLogger;
}

/**
 * The voice-runtime ingress: applies lifecycle events to a call while the
 * repository holds it locked, once per event id. Refused events are not remembered: they changed
 * nothing, so a retry with the same id is judged again against the call as it is then.
 */
export class RecordCallEvent {
  constructor(
    private readonly calls: CallRepository,
    private readonly endCall: EndCall,
    private readonly clock: Clock,
    /** Null: ends without runtime values claim nothing (every field null, `status` false). */
    private readonly evaluator: CallEvaluator | null = null,
  ) {}

  async record(callId: number, report: RuntimeEventReport): Promise<Result<CallEventAnswer, CallEventRefusal>> {
    const evaluated = await this.evaluatedEnd(callId, report);
    return this.calls.update(callId, async (call): Promise<Result<CallChange<CallEventAnswer>, InvalidTransition>> => {
      const earlier = await this.calls.findRuntimeEvent(callId, report.eventId);
      if (earlier !== null)
        return ok({ changes: {}, at: this.clock.now(), answer: { callId, status: earlier.status, duplicate: true } });
      const { event } = evaluated;
      const transition = applyRuntimeEvent(
        call.status,
        event.type,
        event.type === 'ended' ? event.outcome.status : undefined,
      );
      if (!transition.ok) return transition;
      const now = this.clock.now();
      const change: CallChange<CallStatus> =
        transition.value.kind === 'moved'
          ? await this.apply(call, event, report.occurredAt ?? now, now)
          : { changes: {}, at: now, answer: call.status };
      await this.calls.recordRuntimeEvent(callId, report.eventId, { type: event.type, status: change.answer }, now);
      return ok({ ...change, answer: { callId, status: change.answer, duplicate: false } });
    });
  }

  /**
   * An `ended` report without `extracted_variables` for a call whose assistant evaluates
   * (the end's step 3): the evaluator reads the final transcript against `post_call_schema`
   * here, before the end's transaction, so no lock is held while the model thinks, and the
   * `post_call` payload raised in the transaction carries its values. A repeated event id, an end
   * the call would refuse and a call where nobody said anything are not evaluated (nothing to
   * read, and a retry is never paid twice). An evaluator failure claims nothing:
   * `{"status":false,"summary":""}` with every field null.
   */
  private async evaluatedEnd(callId: number, report: RuntimeEventReport): Promise<RuntimeEventReport> {
    const { event } = report;
    if (this.evaluator === null || event.type !== 'ended' || event.outcome.extractedVariables !== undefined)
      return report;
    const call = await this.calls.findById(callId);
    if (call === null || !call.runtimeConfig.assistant.post_call_evaluation) return report;
    const transition = applyRuntimeEvent(call.status, 'ended', event.outcome.status);
    if (!transition.ok || transition.value.kind !== 'moved') return report;
    const transcript = event.outcome.transcript ? appendedTranscript([], event.outcome.transcript) : call.transcript;
    if (transcript.length === 0 || (await this.calls.findRuntimeEvent(callId, report.eventId)) !== null) return report;
    const started = call.runtimeConfig.assistant;
    const { generator, catalog, log } = this.evaluator;
    let produced: Record<string, unknown> | null = null;
    try {
      produced = await generator.evaluateConversation({
        model: await textModelName(catalog, started),
        schema: started.post_call_schema,
        transcript: transcript.map((item) => ({
          role: item.role === 'customer' ? 'user' : 'assistant',
          content: item.content,
        })),
      });
    } catch (e) {
      log.warn(
        { call_id: callId, error: e instanceof Error ? e.message : String(e) },
        'call evaluation failed; the end claims nothing',
      );
    }
    const extractedVariables = evaluatedConversationVariables(
      { enabled: true, fieldNames: started.post_call_schema.map((f) => f.name) },
      produced,
    );
    return { ...report, event: { type: 'ended', outcome: { ...event.outcome, extractedVariables } } };
  }

  /**
   * Ends a call the runtime never took (refused dispatch, lost dispatch) as `failed` — only while it
   * is still `initiated` (or `queued`, a chat-app call), so a call the runtime did report on is left
   * to the runtime.
   */
  async failUnplaced(callId: number, reason: string): Promise<boolean> {
    const failed = await this.calls.update(callId, async (call) => {
      if (call.status !== 'initiated' && call.status !== 'queued') return err({ code: 'not_initiated' as const });
      const now = this.clock.now();
      return ok(await this.endCall.finish(call, { status: 'failed', endedReason: reason }, now, now));
    });
    return failed.ok;
  }

  private async apply(call: Call, event: RuntimeEvent, at: Date, now: Date): Promise<CallChange<CallStatus>> {
    switch (event.type) {
      case 'ringing':
        return {
          changes: { status: 'ringing' },
          events:
            call.channel !== 'chatapp'
              ? []
              : [
                  {
                    topic: CHATAPP_CALL_RINGING_TOPIC,
                    payload: {
                      call_id: call.id,
                      user_id: call.userId,
                      sender_id: call.senderId,
                      customer_phone: call.customerPhone,
                      conversation_id: call.conversationId,
                      at: at.toISOString(),
                    },
                  },
                ],
          at: now,
          answer: 'ringing',
        };
      case 'answered':
        return {
          changes: { status: 'in-progress', answeredAt: at },
          events: [
            callStarted(call, at),
            ...(call.channel !== 'chatapp'
              ? []
              : [
                  {
                    topic: CHATAPP_CALL_CONNECTED_TOPIC,
                    payload: {
                      call_id: call.id,
                      sender_id: call.senderId,
                      customer_phone: call.customerPhone,
                      at: at.toISOString(),
                    },
                  },
                ]),
          ],
          at: now,
          answer: 'in-progress',
        };
      case 'transcript':
        // The call is locked: appending to what was read is safe.
        return {
          changes: { transcript: appendedTranscript(call.transcript, event.items) },
          at: now,
          answer: call.status,
        };
      case 'ended': {
        const end = await this.endCall.finish(call, event.outcome, at, now);
        return { ...end, answer: end.answer.status };
      }
    }
  }
}
