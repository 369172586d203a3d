import { TerminalCallStatus } from '../calls/call-status';

/** How a campaign judges one ended call to a contact. */
export type LeadAttemptOutcome = 'success' | 'failed';

export interface EndedAttempt {
  readonly status: TerminalCallStatus;
  readonly endedReason: string | null;
  readonly extractedVariables: Readonly<Record<string, unknown>>;
}

export interface RetryRules {
  readonly retryOnVoicemail: boolean;
  readonly retryOnGoalIncomplete: boolean;
  readonly goalCompletionVariable: string | null;
}

const GOAL_REACHED: readonly unknown[] = [true, 'true', 1];

/**
 * The attempt-outcome table: busy, no answer, failed and canceled calls fail; a voicemail fails only
 * with `retryOnVoicemail`; an answered call succeeds unless the goal variable is required and not true.
 */
export function attemptOutcome(call: EndedAttempt, rules: RetryRules): LeadAttemptOutcome {
  if (call.status !== 'completed') return 'failed';
  if (call.endedReason === 'voicemail') return rules.retryOnVoicemail ? 'failed' : 'success';
  if (!rules.retryOnGoalIncomplete) return 'success';
  const name = rules.goalCompletionVariable;
  if (name === null || !Object.hasOwn(call.extractedVariables, name)) return 'failed';
  return GOAL_REACHED.includes(call.extractedVariables[name]) ? 'success' : 'failed';
}
