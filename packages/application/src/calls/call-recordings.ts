import { err, ok, recordingMediaKey, type Result } from '@voiceplane/domain';
import type { StoredMedia, MediaStore } from '../ports';
import { Clock } from '../ports';
import { CallRepository } from './ports';

/** How a runtime's recording of a call ended. */
export interface RecordingOutcome {
  readonly callId: number;
  /** False: the recording failed or was aborted, no file will be there. */
  readonly stored: boolean;
}

/** A voice runtime's signed notices about recordings (LiveKit's egress webhooks). */
export interface RecordingNotices {
  /** Null for notices about anything else; throws for a notice the runtime did not sign. */
  read(body: string, authorization: string | undefined): Promise<RecordingOutcome | null>;
}

export type RecordingNoticeRefusal = { readonly code: 'invalid_signature' };

/**
 * Call recordings. The runtime writes the file into the media store under the call's recording key
 * and reports the recording's address with the call's end; the owner fetches it through the product
 * (the media store is private). A recording the runtime reports as lost takes the address back off
 * the call, so `recording_url` never points at a file that will not come.
 */
export class CallRecordings {
  constructor(
    private readonly calls: CallRepository,
    private readonly media: MediaStore,
    private readonly notices: RecordingNotices | null,
    private readonly clock: Clock,
  ) {}

  /** Null for another account's call, a call without a recording, and a file not (yet) stored alike. */
  async open(userId: number, callId: number): Promise<StoredMedia | null> {
    const call = await this.calls.findOwned(userId, callId);
    if (call === null || call.recordingUrl === null) return null;
    return this.media.open(recordingMediaKey(call.id));
  }

  async receiveNotice(body: string, authorization: string | undefined): Promise<Result<void, RecordingNoticeRefusal>> {
    let outcome: RecordingOutcome | null;
    try {
      outcome = this.notices === null ? null : await this.notices.read(body, authorization);
    } catch {
      return err({ code: 'invalid_signature' });
    }
    if (outcome !== null && !outcome.stored) {
      await this.calls.update(outcome.callId, async (call) =>
        ok({
          changes: call.recordingUrl === null ? {} : { recordingUrl: null },
          at: this.clock.now(),
          answer: undefined,
        }),
      );
    }
    return ok(undefined);
  }
}
