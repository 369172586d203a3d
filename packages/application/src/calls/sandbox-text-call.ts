import { BuiltInTool, Call, CallStatus, err, ok, Result, RuntimeTool, ToolCallResult, TranscriptItem } from '@voiceplane/domain';
import { BuiltInOutcome, ConversationBrain, TurnToolCall } from '../conversation-policy/conversation-brain';
import { ChatMessage } from '../conversation-policy/ports';
import { Clock } from '../ports/clock';
import { Ids } from '../ports/ids';
import { InvokeToolForCall } from '../tools/invoke-tool-for-call';
import { CallRepository } from './ports';
import { RecordCallEvent, RuntimeEvent } from './record-call-event';

/** What the assistant did with one line of a sandbox text call (S15). */
export interface SaidOnCall {
  readonly reply: string;
  readonly toolCalls: readonly TurnToolCall[];
  readonly ended: boolean;
  readonly call: { readonly id: number; readonly status: CallStatus };
}

export type SayRefusal =
  | { readonly code: 'call_not_found' }
  | { readonly code: 'not_in_progress' }
  /** The language model could not be reached or answered an error; the customer's line is kept. */
  | { readonly code: 'model_failed'; readonly reason: string };

/** How a function call shows in the transcript: `[tool check_order] {"status":"shipped"}`. */
const TOOL_LINE_PREFIX = '[tool ';
/** Tool results are long; the transcript keeps their start. */
const TOOL_LINE_CONTENT_MAX = 500;

const json = (value: object) => JSON.stringify(value);

/**
 * A built-in on a text call, as the call would carry it out where a text call can: ending and
 * transfers end the call (there is nobody to hand a typed conversation to), keys are "pressed",
 * and what needs a phone or a provider (keypad entry, booking, another assistant's voice) is
 * refused with a reason the model passes on.
 */
function textCallBuiltIn(builtin: BuiltInTool, args: Readonly<Record<string, unknown>>): BuiltInOutcome {
  switch (builtin.type) {
    case 'end_call':
      return { content: json({ ok: true, message: 'The call ends after this answer.' }), end: { reason: 'assistant_ended' } };
    case 'call_transfer':
      return { content: json({ ok: true, message: 'The customer is transferred after this answer.' }), end: { reason: 'transferred' } };
    case 'dtmf_input': {
      const digits = typeof args.digits === 'string' ? args.digits : '';
      return /^[0-9*#]{1,32}$/.test(digits)
        ? { content: json({ ok: true, sent: digits }) }
        : { content: json({ ok: false, error: 'invalid_digits', message: 'Digits must be 1 to 32 of 0-9, * and #.' }) };
    }
    case 'collect_keypad':
      return { content: json({ ok: false, error: 'no_keypad', message: 'This is a text call: ask the customer to type the digits in their answer.' }) };
    case 'calendar_integration':
      return { content: json({ ok: false, error: 'booking_unavailable', message: 'No scheduling provider is connected: tell the customer the appointment cannot be booked now.' }) };
    case 'assistant_transfer':
      return { content: json({ ok: false, error: 'transfer_unavailable', message: 'Handing over to another assistant is not available in a text call: carry on yourself.' }) };
  }
}

/** The conversation so far as the model reads it: spoken lines only (tool lines were results it already used). */
function historyOf(transcript: readonly TranscriptItem[]): ChatMessage[] {
  return transcript
    .filter((item) => !(item.role === 'assistant' && item.content.startsWith(TOOL_LINE_PREFIX)))
    .map((item) => ({ role: item.role === 'customer' ? 'user' : 'assistant', content: item.content }));
}

function toolLine(call: TurnToolCall, at: string): TranscriptItem {
  const content = [...call.content].length > TOOL_LINE_CONTENT_MAX ? `${[...call.content].slice(0, TOOL_LINE_CONTENT_MAX).join('')}…` : call.content;
  return { role: 'assistant', content: `${TOOL_LINE_PREFIX}${call.name}] ${content}`, at };
}

const REFUSED_TOOL: Readonly<Record<'call_not_found' | 'call_ended' | 'tool_not_found', string>> = {
  call_not_found: json({ error: 'call_not_found' }),
  call_ended: json({ error: 'call_ended' }),
  tool_not_found: json({ error: 'tool_not_found' }),
};

/**
 * S15: the customer types a line on a sandbox call and the assistant answers it exactly as on a
 * phone call — the call's own configuration, the conversation policy, mid-call tools through the
 * gateway (recorded in the call's `tool_calls`). The line, the tool results and the answer join
 * the transcript through the runtime ingress, and an `end_call` ends the call through it too, so
 * the normal end (charge, evaluation, `post_call`) runs.
 */
export class SandboxTextCalls {
  constructor(
    private readonly calls: CallRepository,
    private readonly events: RecordCallEvent,
    private readonly brain: ConversationBrain,
    private readonly tools: InvokeToolForCall,
    private readonly ids: Ids,
    private readonly clock: Clock,
  ) {}

  async say(userId: number, callId: number, text: string): Promise<Result<SaidOnCall, SayRefusal>> {
    const found = await this.calls.findOwned(userId, callId);
    if (found === null) return err({ code: 'call_not_found' });
    const call = found.status === 'ringing' ? await this.answer(found) : found;
    if (call?.status !== 'in-progress') return err({ code: 'not_in_progress' });

    const heardAt = this.clock.now().toISOString();
    const line: TranscriptItem = { role: 'customer', content: text, at: heardAt };
    const runTool = async (tool: RuntimeTool, params: Readonly<Record<string, unknown>>): Promise<ToolCallResult> => {
      const result = await this.tools.execute({ callId, toolId: tool.id, params, invocationId: null });
      return result.ok ? result.value : { ok: false, statusCode: null, content: REFUSED_TOOL[result.error], truncated: false, durationMs: 0, error: null, warnings: [] };
    };
    let turn;
    try {
      turn = await this.brain.turn({
        setup: call.runtimeConfig,
        history: [...historyOf(call.transcript), { role: 'user', content: text }],
        runTool,
        runBuiltIn: async (builtin, args) => textCallBuiltIn(builtin, args),
        logContext: { call_id: callId },
        userId,
      });
    } catch (e) {
      await this.report(callId, { type: 'transcript', items: [line] });
      return err({ code: 'model_failed', reason: e instanceof Error ? e.message : String(e) });
    }

    const answeredAt = this.clock.now().toISOString();
    const items = [line, ...turn.toolCalls.map((c) => toolLine(c, answeredAt)), ...(turn.reply === '' ? [] : [{ role: 'assistant' as const, content: turn.reply, at: answeredAt }])];
    let status = await this.report(callId, { type: 'transcript', items });
    if (turn.end !== null) status = await this.report(callId, { type: 'ended', outcome: { status: 'completed', endedReason: turn.end.reason } });
    return ok({ reply: turn.reply, toolCalls: turn.toolCalls, ended: turn.end !== null, call: { id: callId, status } });
  }

  /** A ringing sandbox call is picked up by the customer who starts typing. */
  private async answer(call: Call): Promise<Call | null> {
    const answered = await this.events.record(call.id, { eventId: this.ids.token('sbx_', 22), occurredAt: null, event: { type: 'answered' } });
    return answered.ok ? this.calls.findById(call.id) : null;
  }

  /**
   * Through the ingress, like any runtime report. A call that ended meanwhile (S9, its maximum
   * duration) refuses it; the answer then names the status it ended with.
   */
  private async report(callId: number, event: RuntimeEvent): Promise<CallStatus> {
    const recorded = await this.events.record(callId, { eventId: this.ids.token('sbx_', 22), occurredAt: null, event });
    if (recorded.ok) return recorded.value.status;
    return (await this.calls.findById(callId))?.status ?? 'failed';
  }
}
