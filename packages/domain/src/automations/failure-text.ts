import type { StepFailure } from './run';

/** The `error` a run detail shows for a failed step. */
export function stepErrorText(failure: StepFailure | null): string | null {
  if (failure === null) return null;
  const d = failure.detail ?? '';
  switch (failure.reason) {
    case 'missing_path': return `Missing value at {{${d}}}.`;
    case 'invalid_phone': return `Not a valid E.164 phone number: ${d}`;
    case 'http_status': return `The target answered HTTP ${d}.`;
    case 'http_unauthorized': return `The target refused the credentials (HTTP ${d}).`;
    case 'timeout': return 'The request timed out.';
    case 'connection_failed': return 'The target could not be reached.';
    case 'blocked_target': return 'The target address is not allowed.';
    case 'record_gone': return `${d} no longer exists.`;
    case 'no_row': return `No row matches ${JSON.stringify(d)}.`;
    case 'connection_unusable': return `Connection ${d} is missing or broken.`;
    case 'chatapp_error': return d;
    case 'insufficient_balance': return 'Insufficient balance to place the call.';
    case 'dispatch_failed': return d === '' ? 'The call could not be placed.' : `The call could not be placed: ${d}`;
    case 'time_limit_exceeded': return `Run exceeded ${d} seconds.`;
    case 'worker_lost': return 'worker_lost';
  }
}
