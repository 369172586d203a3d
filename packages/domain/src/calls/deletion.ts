import { isTerminal } from './call-status';
import type { Call } from './entity';

/** Why a call cannot be deleted. */
export type CallDeletionRefusal = 'call_in_progress';

/** A call is deleted only once it has ended: the runtime still writes to one that has not. */
export const callDeletionRefusal = (call: Pick<Call, 'status'>): CallDeletionRefusal | null =>
  isTerminal(call.status) ? null : 'call_in_progress';
