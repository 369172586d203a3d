import { CALL_STATUSES } from './call-status';
import { callDeletionRefusal } from './deletion';

describe('callDeletionRefusal', () => {
  it.each(CALL_STATUSES.map((status) => [status]))('%s', (status) => {
    const ended = ['completed', 'busy', 'no-answer', 'failed', 'canceled'].includes(status);
    expect(callDeletionRefusal({ status })).toBe(ended ? null : 'call_in_progress');
  });
});
