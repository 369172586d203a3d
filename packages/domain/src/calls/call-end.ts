import { TerminalCallStatus } from './call-status';

export interface TranscriptItem {
  readonly role: 'assistant' | 'customer';
  readonly content: string;
  readonly at: string;
}

/**
 * Lines a call's transcript keeps: over two hours of conversation. Every line joins what each later
 * event rewrites, each sandbox `say` replays and the evaluation sends to the model, so a call that
 * went on past this (a runaway runtime, a script typing lines forever) keeps its first lines only.
 */
export const CALL_TRANSCRIPT_LINES_MAX = 2_000;

/** `items` after `transcript`, as far as the cap allows; what is past the cap is dropped. */
export function appendedTranscript(
  transcript: readonly TranscriptItem[],
  items: readonly TranscriptItem[],
): TranscriptItem[] {
  return [...transcript, ...items.slice(0, Math.max(0, CALL_TRANSCRIPT_LINES_MAX - transcript.length))];
}

/**
 * Seconds from answer to end; 0 when never answered, whatever the runtime reports:
 * ringing time is never billed. A reported duration wins over the clock for answered calls.
 */
export function callDuration(answeredAt: Date | null, finishedAt: Date, reported?: number): number {
  if (!answeredAt) return 0;
  if (reported !== undefined) return Math.max(0, Math.round(reported));
  return Math.max(0, Math.round((finishedAt.getTime() - answeredAt.getTime()) / 1000));
}

/** Started minutes at the channel price; no charge for 0 seconds. */
export function callCharge(durationSeconds: number, pricePerMinute: number): { minutes: number; amount: number } {
  const minutes = Math.ceil(durationSeconds / 60);
  return { minutes, amount: Math.round(minutes * pricePerMinute * 10_000) / 10_000 };
}

/** `AI: …` / `Customer: …` lines joined with newlines. */
export function formatTranscript(items: readonly TranscriptItem[]): string {
  return items.map((i) => `${i.role === 'assistant' ? 'AI' : 'Customer'}: ${i.content}`).join('\n');
}

export interface PostCallWebhookSettings {
  readonly isWebhookActive: boolean;
  readonly webhookUrl: string | null;
  readonly sendOnlyOnCompleted: boolean;
}

/** Whether a `post_call` event is created for a call that ended with `status`. */
export function shouldSendPostCallWebhook(settings: PostCallWebhookSettings, status: TerminalCallStatus): boolean {
  if (!settings.isWebhookActive || !settings.webhookUrl) return false;
  return !settings.sendOnlyOnCompleted || status === 'completed';
}

/**
 * Whether an inbound call's post-call body also goes to the assistant's inbound webhook: for inbound calls
 * only, under the same completion rule as the post-call webhook, whether that one is on or not.
 */
export function shouldSendInboundWebhook(
  settings: { readonly inboundWebhookUrl: string | null; readonly sendOnlyOnCompleted: boolean },
  direction: 'inbound' | 'outbound',
  status: TerminalCallStatus,
): boolean {
  if (direction !== 'inbound' || !settings.inboundWebhookUrl) return false;
  return !settings.sendOnlyOnCompleted || status === 'completed';
}

export interface PostCallEvaluation {
  /** The assistant's `post_call_evaluation`. */
  readonly enabled: boolean;
  /** Names of the assistant's `post_call_schema` fields. */
  readonly fieldNames: readonly string[];
}

/**
 * `extracted_variables` stored when a call ends: the runtime evaluator's
 * values as-is; `{}` when evaluation is off. When evaluation is on but the runtime sent nothing,
 * nothing was evaluated, so nothing is claimed: every schema field is null, `status` false and
 * `summary` empty — the keys a receiver expects are still there.
 */
export function extractedVariablesAtEnd(
  evaluation: PostCallEvaluation,
  supplied: Readonly<Record<string, unknown>> | undefined,
): Record<string, unknown> {
  if (!evaluation.enabled) return {};
  if (supplied !== undefined) return { ...supplied };
  const unevaluated: Record<string, unknown> = {};
  for (const name of evaluation.fieldNames) unevaluated[name] = null;
  return { ...unevaluated, status: false, summary: '' };
}
