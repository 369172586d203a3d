import { JsonValue, ParamProblem, ParamSpec, TemplateParams } from '@voiceplane/domain';

/** The answers of the template checks and of the resource checks, kept apart so neither imports the other. */

export interface ParamChoice {
  readonly value: string;
  readonly label: string;
}

/** The hard failures, checks 3–12, in that order; nothing is created on any of them. */
export type ApplyRefusal =
  | { readonly code: 'assistant_required' }
  | { readonly code: 'assistant_not_found' }
  | { readonly code: 'missing_params'; readonly specs: readonly ParamSpec[] }
  | { readonly code: 'invalid_params'; readonly problems: readonly RefusedParam[] }
  | { readonly code: 'needs_connection'; readonly spec: ParamSpec }
  | {
      readonly code: 'invalid_param_choice';
      readonly spec: ParamSpec;
      readonly message: string;
      readonly choices: readonly ParamChoice[];
    }
  | {
      readonly code: 'needs_reconnection';
      readonly spec: ParamSpec;
      readonly connectionId: number;
      readonly connectionName: string;
    }
  | {
      readonly code: 'binding_conflict';
      readonly assistantId: number;
      readonly templateKey: string;
      readonly conflictingAutomationId: string;
    }
  | { readonly code: 'side_effects_require_confirmation' }
  | { readonly code: 'tool_limit_reached'; readonly limit: number };

/** A param value the checks refused, and why; the HTTP layer words it under `params.<key>`. */
export interface RefusedParam {
  readonly spec: ParamSpec;
  readonly problem:
    | ParamProblem
    | { readonly code: 'tool_name_taken'; readonly name: string }
    | { readonly code: 'variables_uncovered'; readonly missing: readonly string[] };
}

export type Outcome<T, E = ApplyRefusal> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: E };
export const refused = <E>(error: E): Outcome<never, E> => ({ ok: false, error });

export interface CheckedParams {
  readonly params: TemplateParams;
  /** The key value of the table's first row: what a lookup test searches for. */
  readonly firstKeyValue: JsonValue;
  readonly tableName: string;
}

/** A resource a version names that the account no longer has. */
export interface GoneResource {
  readonly spec: ParamSpec | null;
  /** e.g. `template 34` */
  readonly what: string;
}
