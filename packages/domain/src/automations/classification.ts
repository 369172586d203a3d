import { STEP_KIND_RULES } from './kinds';
import type { StepKind } from './step-kinds';

/** Step failure classification. */
export const STEP_CLASSIFICATIONS = ['ok', 'paused_at_delay', 'wiring_error', 'missing_connection', 'missing_record', 'step_error'] as const;
export type StepClassification = (typeof STEP_CLASSIFICATIONS)[number];
export type FailureClassification = Exclude<StepClassification, 'ok' | 'paused_at_delay'>;

/** Why a step failed, as the adapter that ran it reports it. */
export const STEP_FAILURE_REASONS = [
  /** A `{{path}}` of the step's configuration does not resolve. */
  'missing_path',
  /** `validate.phone`: the value is not an E.164 number. */
  'invalid_phone',
  /** A non-2xx answer. */
  'http_status',
  /** Unauthorized/forbidden answer (401/403). */
  'http_unauthorized',
  'timeout',
  'connection_failed',
  /** The outbound policy refused the target. */
  'blocked_target',
  /** A referenced sender, template, assistant or table no longer exists. */
  'record_gone',
  /** `table.lookup`: no row has the value. */
  'no_row',
  /** `crm.push_note`: the connection was deleted or is `broken`. */
  'connection_unusable',
  /** A chat-app error code, e.g. `SENDER_OFFLINE`. */
  'chatapp_error',
  'insufficient_balance',
  /** The call could not be dispatched (rules other than balance). */
  'dispatch_failed',
  /** The run hit its execution limit while this step ran. */
  'time_limit_exceeded',
  /** The worker executing the run stopped answering and the run was past its execution limit when found. */
  'worker_lost',
] as const;
export type StepFailureReason = (typeof STEP_FAILURE_REASONS)[number];

/**
 * The "Failure classification" column. A missing path is a wiring error for every kind; a kind
 * may say what one of its own failures means (a 401/403 is a lost connection for a CRM note,
 * while for `http.request` it is an answer like any other non-2xx); everything else is `step_error`.
 */
export function classifyFailure(kind: StepKind, reason: StepFailureReason): FailureClassification {
  if (reason === 'missing_path' || reason === 'worker_lost') return 'wiring_error';
  const rules: { readonly classifyFailure?: (reason: StepFailureReason) => FailureClassification | null } = STEP_KIND_RULES[kind];
  return rules.classifyFailure?.(reason) ?? 'step_error';
}
