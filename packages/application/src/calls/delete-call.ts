import { CallDeletionRefusal, callDeletionRefusal, err, ok, recordingMediaKey, Result } from '@voiceplane/domain';
import type { MediaStore } from '../ports';
import type { ToolInvocationLog } from '../tools';
import type { CallRepository } from './ports';

export type DeleteCallRefusal = 'call_not_found' | CallDeletionRefusal;

export interface DeleteCallPorts {
  readonly calls: CallRepository;
  readonly toolLog: ToolInvocationLog;
  readonly media: MediaStore;
}

/**
 * Deletes an ended call of the owner with everything kept of it: the record and its transcript, the
 * tool log, the recording file. The file and the log go inside the call's transaction, so a failure
 * leaves the call as it was and a retry deletes it whole. Charges stay in the ledger.
 */
export class DeleteCall {
  constructor(private readonly ports: DeleteCallPorts) {}

  async execute(userId: number, callId: number): Promise<Result<void, DeleteCallRefusal>> {
    const { calls, toolLog, media } = this.ports;
    const deleted = await calls.delete(userId, callId, async (call) => {
      const refusal = callDeletionRefusal(call);
      if (refusal !== null) return err(refusal);
      await toolLog.forgetCall(call.id);
      await media.delete(recordingMediaKey(call.id));
      return ok(undefined);
    });
    if (!deleted.ok) return err(typeof deleted.error === 'string' ? deleted.error : deleted.error.code);
    return ok(undefined);
  }
}
