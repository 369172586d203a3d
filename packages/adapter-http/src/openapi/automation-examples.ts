import { invalid } from './error-families';

/** Handler error answers of the automation routes, recorded from their HTTP suites. */

const TEMPLATE_SPEC = {
  key: 'table_id',
  label: 'Data table',
  description: 'Data table to search.',
  required: true,
  example: '7',
};

const tableNotFound = { 404: [{ message: 'Table not found' }] };
const automationNotFound = { 404: [{ message: 'Automation not found', error: 'not_found', params: null }] };
const noLiveVersion = { message: 'The automation has no published version.', error: 'no_live_version', params: null };
const connectionNotFound = { 404: [{ message: 'Connection not found' }] };

export const AUTOMATION_HANDLER_ERRORS: Readonly<Record<string, Readonly<Record<number, readonly object[]>>>> = {
  'GET /api/user/automate/tables': { 422: [invalid({ per_page: ['The per page must be between 1 and 100.'] })] },
  'POST /api/user/automate/tables': { 422: [invalid({ 'columns.0.name': ['The columns.0.name format is invalid.'] })] },
  'GET /api/user/automate/tables/{id}': tableNotFound,
  'DELETE /api/user/automate/tables/{id}': tableNotFound,
  'GET /api/user/automate/tables/{id}/rows': tableNotFound,
  'POST /api/user/automate/tables/{id}/rows': {
    ...tableNotFound,
    422: [
      invalid({ 'rows.0.values.status': ['The rows.0.values.status must be a string.'] }),
      { message: 'A table can hold at most 10000 rows.' },
    ],
  },
  'PUT /api/user/automate/tables/{id}/rows/{row_id}': {
    404: [{ message: 'Row not found' }],
    422: [invalid({ 'values.colour': ['The values.colour column does not exist.'] })],
  },
  'DELETE /api/user/automate/tables/{id}/rows/{row_id}': { 404: [{ message: 'Row not found' }] },
  'GET /api/user/automate/connections': { 422: [invalid({ page: ['The page must be an integer.'] })] },
  'POST /api/user/automate/connections': {
    422: [invalid({ auth_value: ['The auth value field is required unless auth type is none.'] })],
  },
  'PUT /api/user/automate/connections/{id}': {
    ...connectionNotFound,
    422: [invalid({ base_url: ['The base url must be a public http or https URL.'] })],
  },
  'DELETE /api/user/automate/connections/{id}': connectionNotFound,
  'POST /api/user/automate/connections/{id}/check': connectionNotFound,
  'GET /api/user/automate/templates': {
    404: [{ message: 'Automation template not found.', error: 'template_not_found', params: null }],
  },
  'GET /api/user/automate/templates/{key}': {
    404: [{ message: 'Automation template not found.', error: 'template_not_found', params: null }],
  },
  'POST /api/user/automate/templates/{key}': {
    404: [{ message: 'Automation template not found.', error: 'template_not_found', params: null }],
    422: [
      {
        message: 'The given data was invalid.',
        error: 'invalid_params',
        params: null,
        errors: { assistant_id: ['The assistant id must be an integer.'] },
      },
      { message: 'Missing required parameters: table_id.', error: 'missing_params', params: [TEMPLATE_SPEC] },
      {
        message: 'Table 99 is not a data table of this account.',
        error: 'invalid_param_choice',
        params: [TEMPLATE_SPEC],
        choices: [{ value: '7', label: 'Orders' }],
      },
    ],
  },
  'GET /api/user/automate/flows/{id}/runs': {
    404: [{ message: 'Automation not found' }, { message: 'Run not found' }],
    422: [invalid({ limit: ['The limit must be between 1 and 20.'] })],
  },
  'GET /api/user/automate/flows': { 422: [invalid({ template_key: ['The selected template key is invalid.'] })] },
  'GET /api/user/automate/flows/{id}': { 404: [{ message: 'Automation not found' }] },
  'PUT /api/user/automate/flows/{id}': {
    ...automationNotFound,
    422: [
      { message: 'Missing required parameters: table_id.', error: 'missing_params', params: [TEMPLATE_SPEC] },
      {
        message:
          'This template sends real messages or places real calls during its test. Repeat the request with confirm_side_effects set to true.',
        error: 'side_effects_require_confirmation',
        params: null,
      },
    ],
  },
  'POST /api/user/automate/flows/{id}/enable': {
    ...automationNotFound,
    422: [noLiveVersion, { message: 'Assistant not found.', error: 'assistant_not_found', params: null }],
  },
  'POST /api/user/automate/flows/{id}/disable': automationNotFound,
  'DELETE /api/user/automate/flows/{id}': automationNotFound,
  'GET /api/user/automate/flows/{id}/versions': { 404: [{ message: 'Automation not found' }] },
  'POST /api/user/automate/flows/{id}/restore': {
    ...automationNotFound,
    422: [
      { message: 'There is no earlier published version to restore.', error: 'no_previous_version', params: null },
      { message: 'Version 1 could not be read; nothing was changed.', error: 'rollback_failed', params: null },
      {
        message:
          'Version 1 was restored as draft version 3 but not published: table 7 no longer exists. The live version is unchanged.',
        error: 'publish_failed',
        params: [TEMPLATE_SPEC],
        draft_version_id: 'ver_6Yt1Rm4Kp7Wq0Zx3Cv9Bn2',
      },
    ],
  },
  'POST /api/user/automate/flows/{id}/runs/{run_id}/retry': {
    404: [
      { message: 'Automation not found', error: 'not_found', params: null },
      { message: 'Run not found', error: 'not_found', params: null },
    ],
    422: [{ message: 'Only failed runs can be retried.', error: 'run_not_retryable', params: null }, noLiveVersion],
  },
  'POST /api/hooks/automations/{id}/{token}': {
    ...automationNotFound,
    409: [{ message: 'Automation is disabled.', error: 'automation_disabled', params: null }],
    422: [
      {
        message: 'The request body must be a JSON object.',
        error: 'invalid_params',
        params: null,
        errors: { body: ['The request body must be a JSON object.'] },
      },
    ],
    504: [{ message: 'Automation timed out.', error: 'timeout', params: null, run_id: 'run_7Gh2Jk5Lz8Xc1Vb4Nm6Qw3' }],
  },
  'POST /api/sandbox/automate/runs/{run_id}/resume-now': {
    404: [{ message: 'Not found.' }],
    422: [{ message: 'The run is not paused.' }],
  },
  'PUT /api/sandbox/automate/connections/{id}/status': {
    404: [{ message: 'Not found.' }],
    422: [invalid({ status: ['The selected status is invalid.'] })],
  },
};
