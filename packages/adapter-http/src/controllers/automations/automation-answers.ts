import {
  ApplyRefusal,
  ConnectionRefusal,
  DataTableRefusal,
  EnableRefusal,
  RestoreRefusal,
  RetryRefusal,
  RunsRefusal,
  UpdateRefusal,
} from '@voiceplane/application';
import { TEMPLATE_CATALOGUE } from '@voiceplane/domain';
import { Answer, AnswerTable } from '../../pipeline/answers';
import { validationBody } from '../../pipeline/families';
import { DATA_TABLE_MESSAGES, paramErrors } from './automation-messages';
import { fieldErrors } from '../../pipeline/field-messages';

/** The automation family `{message, error, params}`. */
const automationError = (
  status: number,
  message: string,
  error: string,
  params: unknown = null,
  extra: object = {},
): Answer => ({ status, body: { message, error, params, ...extra } });

export const TEMPLATE_NOT_FOUND = automationError(404, 'Automation template not found.', 'template_not_found');
export const RUNS_AUTOMATION_NOT_FOUND: Answer = { status: 404, body: { message: 'Automation not found' } };
export const RUN_NOT_FOUND: Answer = { status: 404, body: { message: 'Run not found' } };
export const TABLE_NOT_FOUND: Answer = { status: 404, body: { message: 'Table not found' } };
export const ROW_NOT_FOUND: Answer = { status: 404, body: { message: 'Row not found' } };
export const CONNECTION_NOT_FOUND: Answer = { status: 404, body: { message: 'Connection not found' } };
export const TABLE_FULL: Answer = { status: 422, body: { message: 'A table can hold at most 10000 rows.' } };

const CREDENTIAL_MESSAGES = {
  auth_value: {
    required: 'The auth value field is required unless auth type is none.',
    basic_format: 'The auth value must be user:password for basic authentication.',
  },
  auth_header_name: { required: 'The auth header name field is required when auth type is header.' },
} as const;

/** The connection routes speak the standard family. */
export const CONNECTION_ANSWERS: AnswerTable<ConnectionRefusal> = {
  connection_not_found: CONNECTION_NOT_FOUND,
  invalid_credentials: ({ problems }) => {
    const errors: Record<string, string[]> = {};
    if (problems.auth_value) errors.auth_value = [CREDENTIAL_MESSAGES.auth_value[problems.auth_value]];
    if (problems.auth_header_name)
      errors.auth_header_name = [CREDENTIAL_MESSAGES.auth_header_name[problems.auth_header_name]];
    return { status: 422, body: validationBody('standard', errors) };
  },
};

/** The data-table routes speak the standard family. */
export const DATA_TABLE_ANSWERS: AnswerTable<DataTableRefusal> = {
  table_not_found: TABLE_NOT_FOUND,
  row_not_found: ROW_NOT_FOUND,
  table_full: TABLE_FULL,
  name_taken: { status: 422, body: validationBody('standard', { name: ['The name has already been taken.'] }) },
  // The shape's own messages first; the column rules' words for the fields it left alone.
  invalid_fields: ({ errors, problems }) => ({
    status: 422,
    body: validationBody('standard', { ...errors, ...withoutKeys(fieldErrors(problems, DATA_TABLE_MESSAGES), errors) }),
  }),
};

/** The sandbox automation controls answer with the generic 404. */
export const SANDBOX_NOT_FOUND: Answer = { status: 404, body: { message: 'Not found.' } };
export const RUN_NOT_PAUSED: Answer = { status: 422, body: { message: 'The run is not paused.' } };

/** The sandbox automation controls: resume-now and connection status. */
export const SANDBOX_AUTOMATION_ANSWERS: AnswerTable<'run_not_found' | 'run_not_paused' | 'connection_not_found'> = {
  run_not_found: SANDBOX_NOT_FOUND,
  run_not_paused: RUN_NOT_PAUSED,
  connection_not_found: SANDBOX_NOT_FOUND,
};

/** An automation's runs list and run detail. */
export const RUNS_ANSWERS: AnswerTable<RunsRefusal> = {
  automation_not_found: RUNS_AUTOMATION_NOT_FOUND,
  run_not_found: RUN_NOT_FOUND,
};

const withoutKeys = (from: Record<string, string[]>, taken: object) =>
  Object.fromEntries(Object.entries(from).filter(([key]) => !(key in taken)));

export const invalidShape = (errors: Record<string, string[]>): Answer =>
  automationError(422, 'The given data was invalid.', 'invalid_params', null, { errors });

/** Checks 3–12 of applying a template. */
export const APPLY_ANSWERS: AnswerTable<ApplyRefusal> = {
  assistant_required: automationError(422, 'This template requires an assistant_id.', 'assistant_required'),
  assistant_not_found: automationError(422, 'Assistant not found.', 'assistant_not_found'),
  missing_params: ({ specs }) =>
    automationError(
      422,
      `Missing required parameters: ${specs.map((s) => s.key).join(', ')}.`,
      'missing_params',
      specs,
    ),
  invalid_params: ({ problems }) =>
    automationError(
      422,
      'The given data was invalid.',
      'invalid_params',
      problems.map((p) => p.spec),
      { errors: paramErrors(problems) },
    ),
  needs_connection: ({ spec }) =>
    automationError(422, 'This template needs an http_api connection. Create one first.', 'needs_connection', [spec]),
  invalid_param_choice: ({ spec, message, choices }) =>
    automationError(422, message, 'invalid_param_choice', [spec], { choices }),
  needs_reconnection: ({ spec, connectionId, connectionName }) =>
    automationError(
      422,
      `Connection ${connectionId} (${connectionName}) is broken. Update its credentials and check it again.`,
      'needs_reconnection',
      [spec],
    ),
  binding_conflict: ({ assistantId, templateKey, conflictingAutomationId }) =>
    automationError(
      422,
      `Assistant ${assistantId} already has an enabled ${templateKey} automation on ${triggerEventOf(templateKey)}.`,
      'binding_conflict',
      null,
      { conflicting_automation_id: conflictingAutomationId },
    ),
  side_effects_require_confirmation: automationError(
    422,
    'This template sends real messages or places real calls during its test. Repeat the request with confirm_side_effects set to true.',
    'side_effects_require_confirmation',
  ),
  tool_limit_reached: ({ limit }) =>
    automationError(
      422,
      `You have reached your plan limit of ${limit} mid call tools. Please upgrade your plan to create more tools.`,
      'tool_limit_reached',
    ),
};

/** The 404 of the automation routes that speak the automation family. */
export const AUTOMATION_NOT_FOUND = automationError(404, 'Automation not found', 'not_found');
const NO_LIVE_VERSION = automationError(422, 'The automation has no published version.', 'no_live_version');

/** `PUT /api/user/automate/flows/{id}`: checks 2 and 5–11 (plus a tool limit on a first publish). */
export const UPDATE_ANSWERS: AnswerTable<UpdateRefusal> = { ...APPLY_ANSWERS, not_found: AUTOMATION_NOT_FOUND };

export const ENABLE_ANSWERS: AnswerTable<EnableRefusal> = {
  not_found: AUTOMATION_NOT_FOUND,
  no_live_version: NO_LIVE_VERSION,
  assistant_not_found: APPLY_ANSWERS.assistant_not_found,
  binding_conflict: APPLY_ANSWERS.binding_conflict,
};

export const RESTORE_ANSWERS: AnswerTable<RestoreRefusal> = {
  not_found: AUTOMATION_NOT_FOUND,
  no_previous_version: automationError(422, 'There is no earlier published version to restore.', 'no_previous_version'),
  rollback_failed: ({ versionNumber }) =>
    automationError(422, `Version ${versionNumber} could not be read; nothing was changed.`, 'rollback_failed'),
  publish_failed: ({ versionNumber, draft, gone }) =>
    automationError(
      422,
      `Version ${versionNumber} was restored as draft version ${draft.number} but not published: ${gone.map((g) => g.what).join(', ')} no longer ${gone.length > 1 ? 'exist' : 'exists'}. The live version is unchanged.`,
      'publish_failed',
      gone.flatMap((g) => (g.spec ? [g.spec] : [])),
      { draft_version_id: draft.id },
    ),
};

export const RETRY_ANSWERS: AnswerTable<RetryRefusal> = {
  not_found: AUTOMATION_NOT_FOUND,
  run_not_found: automationError(404, 'Run not found', 'not_found'),
  run_not_retryable: automationError(422, 'Only failed runs can be retried.', 'run_not_retryable'),
  no_live_version: NO_LIVE_VERSION,
  side_effects_require_confirmation: APPLY_ANSWERS.side_effects_require_confirmation,
};

export const HOOK_DISABLED = automationError(409, 'Automation is disabled.', 'automation_disabled');
export const HOOK_BODY_NOT_OBJECT = automationError(
  422,
  'The request body must be a JSON object.',
  'invalid_params',
  null,
  { errors: { body: ['The request body must be a JSON object.'] } },
);
export const hookTimeout = (runId: string): Answer =>
  automationError(504, 'Automation timed out.', 'timeout', null, { run_id: runId });

/** Ids the server hands out (`aut_…`, `run_…`): anything else cannot name a record, so it is not looked up. */
const PUBLIC_ID = /^[a-z]{3}_[0-9A-Za-z]{1,36}$/;
export const isPublicId = (raw: unknown): raw is string => typeof raw === 'string' && PUBLIC_ID.test(raw);

/** The event an assistant-event template listens to (`call.ended` unless the template says otherwise). */
function triggerEventOf(templateKey: string): string {
  const trigger = TEMPLATE_CATALOGUE.find((t) => t.key === templateKey)?.trigger;
  return trigger?.kind === 'trigger.assistant_event' ? trigger.event : 'call.ended';
}

/** The `message` of each successful connection write. */
export const CONNECTION_SUCCESS = {
  created: 'Connection created successfully',
  updated: 'Connection updated successfully',
  deleted: 'Connection deleted successfully',
} as const;

/** The `message` of each successful data-table write. */
export const DATA_TABLE_SUCCESS = {
  tableCreated: 'Table created successfully',
  tableDeleted: 'Table deleted successfully',
  rowsAdded: 'Rows added successfully',
  rowUpdated: 'Row updated successfully',
  rowDeleted: 'Row deleted successfully',
} as const;

/** The `message` (or restore `note`) of each successful automation write. */
export const AUTOMATION_SUCCESS = {
  enabled: 'Automation enabled.',
  disabled: 'Automation disabled.',
  deleted: 'Automation deleted.',
  restored: (restored: number, copy: number, status: string) =>
    `Version ${restored} is live again as version ${copy}. The automation stays ${status}.`,
} as const;
