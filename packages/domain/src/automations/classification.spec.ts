import { classifyFailure, FailureClassification, StepFailureReason } from './classification';
import { StepKind } from './step-kinds';

/** The "Failure classification" column, row by row. */
const table: [StepKind, StepFailureReason, FailureClassification][] = [
  ['validate.phone', 'missing_path', 'wiring_error'],
  ['validate.phone', 'invalid_phone', 'step_error'],
  ['condition', 'missing_path', 'wiring_error'],
  ['http.request', 'http_status', 'step_error'],
  ['http.request', 'http_unauthorized', 'step_error'],
  ['http.request', 'timeout', 'step_error'],
  ['http.request', 'blocked_target', 'step_error'],
  ['http.request', 'connection_failed', 'step_error'],
  ['http.request', 'missing_path', 'wiring_error'],
  ['chatapp.send_template', 'record_gone', 'missing_record'],
  ['chatapp.send_template', 'missing_path', 'wiring_error'],
  ['chatapp.send_template', 'chatapp_error', 'step_error'],
  ['voice.make_call', 'record_gone', 'missing_record'],
  ['voice.make_call', 'insufficient_balance', 'step_error'],
  ['voice.make_call', 'dispatch_failed', 'step_error'],
  ['voice.make_call', 'missing_path', 'wiring_error'],
  ['table.lookup', 'record_gone', 'missing_record'],
  ['table.lookup', 'no_row', 'missing_record'],
  ['table.lookup', 'missing_path', 'wiring_error'],
  ['respond', 'missing_path', 'wiring_error'],
  ['crm.push_note', 'connection_unusable', 'missing_connection'],
  ['crm.push_note', 'http_unauthorized', 'missing_connection'],
  ['crm.push_note', 'http_status', 'step_error'],
  ['crm.push_note', 'timeout', 'step_error'],
  ['crm.push_note', 'missing_path', 'wiring_error'],
  ...(['validate.phone', 'http.request', 'voice.make_call', 'table.lookup', 'crm.push_note'] as const).map(
    (k): [StepKind, StepFailureReason, FailureClassification] => [k, 'time_limit_exceeded', 'step_error'],
  ),
];

describe('step failure classification', () => {
  it.each(table)('%s failing with %s is %s', (kind, reason, classification) => {
    expect(classifyFailure(kind, reason)).toBe(classification);
  });
});
