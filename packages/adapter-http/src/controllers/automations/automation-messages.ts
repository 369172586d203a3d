import { RefusedParam } from '@voiceplane/application';
import { DataTableProblem, StepFailure } from '@voiceplane/domain';
import { FieldMessages } from '../../pipeline/field-messages';

/**
 * The automation texts: the domain and the use cases report codes with their data, and this is
 * the one place they become the sentences clients read.
 */

/** A refused template param, worded with the param's label (`The delay (minutes) must be …`). */
export function paramProblemText({ spec, problem }: RefusedParam): string {
  const the = `The ${spec.label.toLowerCase()}`;
  switch (problem.code) {
    case 'not_id':
      return `${the} must be an integer id.`;
    case 'not_string':
      return `${the} must be a string.`;
    case 'too_long':
      return `${the} may not be greater than ${problem.max} characters.`;
    case 'format_invalid':
      return `${the} format is invalid.`;
    case 'not_phone':
      return `${the} must be a valid E.164 phone number.`;
    case 'not_boolean':
      return `${the} field must be true or false.`;
    case 'not_integer':
      return `${the} must be an integer.`;
    case 'out_of_range':
      return `${the} must be between ${problem.min} and ${problem.max}.`;
    case 'not_url':
      return `${the} must be a valid URL.`;
    case 'url_refused':
      return problem.reason;
    case 'not_json_object':
      return `${the} must be a JSON object.`;
    case 'too_many_names':
      return `${the} may not have more than ${problem.max} names.`;
    case 'tool_name_taken':
      return `The assistant already has a tool named ${problem.name}.`;
    case 'variables_uncovered':
      return `The template variables map must cover: ${problem.missing.join(', ')}.`;
  }
}

/** The `errors` map of refused params: `params.<key>` to its text, in the order found. */
export const paramErrors = (problems: readonly RefusedParam[]): Record<string, string[]> =>
  Object.fromEntries(problems.map((p) => [`params.${p.spec.key}`, [paramProblemText(p)]]));

/** The `error` a run detail shows for a failed step; runs store the failure's code and detail, not this text. */
export function stepErrorText(failure: StepFailure | null): string | null {
  if (failure === null) return null;
  const d = failure.detail ?? '';
  switch (failure.reason) {
    case 'missing_path':
      return `Missing value at {{${d}}}.`;
    case 'invalid_phone':
      return `Not a valid E.164 phone number: ${d}`;
    case 'http_status':
      return `The target answered HTTP ${d}.`;
    case 'http_unauthorized':
      return `The target refused the credentials (HTTP ${d}).`;
    case 'timeout':
      return 'The request timed out.';
    case 'connection_failed':
      return 'The target could not be reached.';
    case 'blocked_target':
      return 'The target address is not allowed.';
    case 'record_gone':
      return `${d} no longer exists.`;
    case 'no_row':
      return `No row matches ${JSON.stringify(d)}.`;
    case 'connection_unusable':
      return `Connection ${d} is missing or broken.`;
    case 'chatapp_error':
      return d;
    case 'insufficient_balance':
      return 'Insufficient balance to place the call.';
    case 'do_not_call':
      return `${d} is on the do-not-call list.`;
    case 'dispatch_failed':
      return d === '' ? 'The call could not be placed.' : `The call could not be placed: ${d}`;
    case 'time_limit_exceeded':
      return `Run exceeded ${d} seconds.`;
    case 'worker_lost':
      return 'worker_lost';
  }
}

/** Column and row problems of a data table, on the field the rules name. */
export const DATA_TABLE_MESSAGES: FieldMessages<DataTableProblem> = {
  not_array: (field) => `The ${field} field must be an array.`,
  item_count: (field, p) => `The ${field} field must have between ${p.min} and ${p.max} items.`,
  not_object: (field) => `The ${field} must be an object.`,
  format_invalid: (field) => `The ${field} format is invalid.`,
  duplicate: (field) => `The ${field} field has a duplicate value.`,
  selected_invalid: (field) => `The selected ${field} is invalid.`,
  unknown_column: (field) => `The ${field} column does not exist.`,
  wrong_type: (field, p) => `The ${field} must be a ${p.type}.`,
  too_large: (field) => `The ${field} may not be greater than 8 kilobytes.`,
};
