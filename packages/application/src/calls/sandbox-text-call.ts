import {
  BuiltInTool,
  Call,
  CALL_TRANSCRIPT_LINES_MAX,
  CallStatus,
  err,
  ok,
  Result,
  RuntimeConfig,
  RuntimeTool,
  ToolCallResult,
  TranscriptItem,
} from '@voiceplane/domain';
import { BUILT_IN_REFUSALS, DO_NOT_CALL_DONE, dtmfDigits, handOver, HandOver } from '../conversation-policy';
import { ManageDoNotCall } from './do-not-call';
import { BuiltInOutcome, ConversationBrain, TurnToolCall } from '../conversation-policy';
import { Clock } from '../ports';
import { Ids } from '../ports';
import { InvokeToolForCall } from '../tools';
import { CallRepository } from './ports';
import { RecordCallEvent, RuntimeEvent } from './record-call-event';
import { AWAITING_KEYS, HANDED_OVER, json, textCallState, toolLine, typedKeys } from './text-call-transcript';

/** What the assistant did with one line of a sandbox text call (`say`). */
export interface SaidOnCall {
  readonly reply: string;
  readonly toolCalls: readonly TurnToolCall[];
  readonly ended: boolean;
  readonly call: { readonly id: number; readonly status: CallStatus };
}

export type SayRefusal =
  | { readonly code: 'call_not_found' }
  | { readonly code: 'not_in_progress' }
  /** The transcript holds CALL_TRANSCRIPT_LINES_MAX lines: nothing more would be kept of the conversation. */
  | { readonly code: 'transcript_full'; readonly max: number }
  /** The language model could not be reached or answered an error; the customer's line is kept. */
  | { readonly code: 'model_failed'; readonly reason: string };

/**
 * A built-in on a text call, as the call would carry it out: ending and phone transfers end the
 * call (there is nobody to hand a typed conversation to), keys are "pressed", `collect_keypad`
 * waits for the customer's next line as the keys, `assistant_transfer` hands the rest of the call
 * to the other assistant, and booking is refused as on a call (no scheduling provider exists).
 */
class TextCallBuiltIns {
  /** Set once an `assistant_transfer` went ahead in this turn. */
  handedOver: HandOver | null = null;

  constructor(
    private readonly config: RuntimeConfig,
    private readonly now: Date,
    /** Lists the call's customer on the account's do-not-call list; false when that failed. */
    private readonly optOut: () => Promise<boolean>,
  ) {}

  async run(builtin: BuiltInTool, args: Readonly<Record<string, unknown>>): Promise<BuiltInOutcome> {
    switch (builtin.type) {
      case 'end_call':
        return {
          content: json({ ok: true, message: 'The call ends after this answer.' }),
          end: { reason: 'assistant_ended' },
        };
      case 'call_transfer':
        return {
          content: json({ ok: true, message: 'The customer is transferred after this answer.' }),
          end: { reason: 'transferred' },
        };
      case 'dtmf_input': {
        const digits = dtmfDigits(args);
        return digits === null
          ? { ok: false, content: json(BUILT_IN_REFUSALS.invalidDigits) }
          : { content: json({ pressed: digits }) };
      }
      case 'collect_keypad':
        return { content: AWAITING_KEYS(builtin.data.stop_key), stop: true };
      case 'calendar_integration':
        return { ok: false, content: json(BUILT_IN_REFUSALS.noScheduling) };
      case 'assistant_transfer': {
        // One hand-over a turn: a second would be resolved against the wrong assistant.
        const next = this.handedOver === null ? handOver(this.config, builtin, this.now) : null;
        if (next === null) return { ok: false, content: json(BUILT_IN_REFUSALS.noSuchColleague) };
        this.handedOver = next;
        return { content: HANDED_OVER(next.assistantName), stop: true };
      }
      case 'do_not_call':
        return (await this.optOut())
          ? { content: json(DO_NOT_CALL_DONE) }
          : { ok: false, content: json(BUILT_IN_REFUSALS.doNotCallFailed) };
    }
  }
}

const REFUSED_TOOL: Readonly<Record<'call_not_found' | 'call_ended' | 'tool_not_found', string>> = {
  call_not_found: json({ error: 'call_not_found' }),
  call_ended: json({ error: 'call_ended' }),
  tool_not_found: json({ error: 'tool_not_found' }),
};

/**
 * Sandbox `say`: the customer types a line on a sandbox call and the assistant answers it exactly as on a
 * phone call — the call's own configuration, the conversation policy, mid-call tools through the
 * gateway (recorded in the call's `tool_calls`). The line, the tool results and the answer join
 * the transcript through the runtime ingress, and an `end_call` ends the call through it too, so
 * the normal end (charge, evaluation, `post_call`) runs. Which assistant answers and whether keys
 * are awaited is read back from the transcript, so a text call needs no state of its own.
 */
export class SandboxTextCalls {
  constructor(
    private readonly calls: CallRepository,
    private readonly events: RecordCallEvent,
    private readonly brain: ConversationBrain,
    private readonly tools: InvokeToolForCall,
    private readonly ids: Ids,
    private readonly clock: Clock,
    private readonly doNotCall: ManageDoNotCall,
  ) {}

  async say(userId: number, callId: number, text: string): Promise<Result<SaidOnCall, SayRefusal>> {
    const found = await this.calls.findOwned(userId, callId);
    if (found === null) return err({ code: 'call_not_found' });
    const call = found.status === 'ringing' ? await this.answer(found) : found;
    if (call?.status !== 'in-progress') return err({ code: 'not_in_progress' });
    if (call.transcript.length >= CALL_TRANSCRIPT_LINES_MAX)
      return err({ code: 'transcript_full', max: CALL_TRANSCRIPT_LINES_MAX });

    const now = this.clock.now();
    const heardAt = now.toISOString();
    const line: TranscriptItem = { role: 'customer', content: text, at: heardAt };
    const state = textCallState(call.runtimeConfig, call.transcript, now);
    const heard: TranscriptItem[] = [line];
    if (state.collecting === null) state.history.push({ role: 'user', content: text });
    else {
      const keys = typedKeys(state.collecting, text, `keypad_${call.transcript.length}`);
      state.history.push(...keys.messages);
      heard.push(toolLine(state.collecting.name, keys.result, heardAt));
    }
    const builtIns = new TextCallBuiltIns(state.config, now, async () => (await this.doNotCall.addFromCall(callId)).ok);
    const runTool = async (tool: RuntimeTool, params: Readonly<Record<string, unknown>>): Promise<ToolCallResult> => {
      const result = await this.tools.execute({ callId, toolId: tool.id, params, invocationId: null });
      return result.ok
        ? result.value
        : {
            ok: false,
            statusCode: null,
            content: REFUSED_TOOL[result.error],
            truncated: false,
            durationMs: 0,
            error: null,
            warnings: [],
          };
    };
    let turn;
    try {
      turn = await this.brain.turn({
        setup: state.config,
        history: state.history,
        runTool,
        runBuiltIn: (builtin, args) => builtIns.run(builtin, args),
        logContext: { call_id: callId },
        userId,
        logOwner: { callId },
      });
    } catch (e) {
      await this.report(callId, { type: 'transcript', items: heard });
      return err({ code: 'model_failed', reason: e instanceof Error ? e.message : String(e) });
    }

    const answeredAt = this.clock.now().toISOString();
    // After a hand-over the assistant leaving says its message, then the new one its greeting.
    const said = [turn.reply, builtIns.handedOver?.before ?? '', builtIns.handedOver?.greeting ?? ''].filter(
      (s) => s !== '',
    );
    const items = [
      ...heard,
      ...turn.toolCalls.map((c) => toolLine(c.name, c.content, answeredAt)),
      ...said.map((content) => ({ role: 'assistant' as const, content, at: answeredAt })),
    ];
    let status = await this.report(callId, { type: 'transcript', items });
    if (turn.end !== null)
      status = await this.report(callId, {
        type: 'ended',
        outcome: { status: 'completed', endedReason: turn.end.reason },
      });
    return ok({
      reply: said.join('\n'),
      toolCalls: turn.toolCalls,
      ended: turn.end !== null,
      call: { id: callId, status },
    });
  }

  /** A ringing sandbox call is picked up by the customer who starts typing. */
  private async answer(call: Call): Promise<Call | null> {
    const answered = await this.events.record(call.id, {
      eventId: this.ids.token('sbx_', 22),
      occurredAt: null,
      event: { type: 'answered' },
    });
    return answered.ok ? this.calls.findById(call.id) : null;
  }

  /**
   * Through the ingress, like any runtime report. A call that ended meanwhile (sandbox `finish`, its maximum
   * duration) refuses it; the answer then names the status it ended with.
   */
  private async report(callId: number, event: RuntimeEvent): Promise<CallStatus> {
    const recorded = await this.events.record(callId, { eventId: this.ids.token('sbx_', 22), occurredAt: null, event });
    if (recorded.ok) return recorded.value.status;
    return (await this.calls.findById(callId))?.status ?? 'failed';
  }
}
