import { STEP_KIND_RULES } from './kinds';
import type { StepKind } from './step-kinds';
import type { FailureClassification, StepFailureReason } from './step-outcome';

export { STEP_CLASSIFICATIONS, STEP_FAILURE_REASONS } from './step-outcome';
export type { FailureClassification, StepClassification, StepFailureReason } from './step-outcome';

/**
 * The "Failure classification" column. A missing path is a wiring error for every kind; a kind
 * may say what one of its own failures means (a 401/403 is a lost connection for a CRM note,
 * while for `http.request` it is an answer like any other non-2xx); everything else is `step_error`.
 */
export function classifyFailure(kind: StepKind, reason: StepFailureReason): FailureClassification {
  if (reason === 'missing_path' || reason === 'worker_lost') return 'wiring_error';
  const rules: { readonly classifyFailure?: (reason: StepFailureReason) => FailureClassification | null } =
    STEP_KIND_RULES[kind];
  return rules.classifyFailure?.(reason) ?? 'step_error';
}
