import type { AutomationTrigger } from './step-kinds';

/**
 * No loops: the end of a call that a run of this same automation placed starts
 * another run only while the automation's own chain rule allows it. `placedBy` is the attempt of
 * that run, or null when the call was not placed by this automation (an original call, or one
 * placed by another automation). Answers the attempt the new run is, or null: no run at all.
 *
 * The original call's run is attempt 1; each call-back it places whose end starts a run adds one,
 * so `max_attempts` bounds the call-backs made for one original call.
 */
export function chainAttempt(trigger: AutomationTrigger, placedBy: number | null): number | null {
  if (placedBy === null) return 1;
  const max = trigger.kind === 'trigger.assistant_event' ? (trigger.max_attempts ?? 0) : 0;
  const next = placedBy + 1;
  return next <= max ? next : null;
}
