import type { AttemptError } from '../webhooks/delivery';
import type { JsonValue } from './json';

/*
 * What running one step can come to, in words both the engine (run.ts, classification.ts) and the
 * step kinds (kinds/) use. It imports neither, so the kinds never import back into the engine.
 */

/** Step failure classification. */
export const STEP_CLASSIFICATIONS = [
  'ok',
  'paused_at_delay',
  'wiring_error',
  'missing_connection',
  'missing_record',
  'step_error',
] as const;
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
  /** The number to call is on the account's do-not-call list. */
  'do_not_call',
  /** The call could not be dispatched (rules other than balance). */
  'dispatch_failed',
  /** The run hit its execution limit while this step ran. */
  'time_limit_exceeded',
  /** The worker executing the run stopped answering and the run was past its execution limit when found. */
  'worker_lost',
] as const;
export type StepFailureReason = (typeof STEP_FAILURE_REASONS)[number];

/** What an HTTP step's attempt came back with (the step's result carries it). */
export interface StepAttemptOutcome {
  readonly statusCode: number | null;
  readonly error: AttemptError | null;
  readonly retryAfterSeconds: number | null;
}

/** What executing one step came to, as reported by the one who ran it. */
export type StepResult =
  | { readonly kind: 'ok'; readonly output: JsonValue; readonly attempt?: StepAttemptOutcome }
  | { readonly kind: 'paused_at_delay' }
  | {
      readonly kind: 'failed';
      readonly reason: StepFailureReason;
      readonly detail: string | null;
      readonly output?: JsonValue;
      readonly attempt?: StepAttemptOutcome;
    };
