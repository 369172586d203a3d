import { TerminalCallStatus } from './call-status';
import { formatTranscript, TranscriptItem } from './call-end';

/** A call as it stands once its end was accepted. */
export interface EndedCall {
  readonly id: number;
  readonly assistantId: number;
  readonly customerPhone: string;
  readonly assistantPhone: string | null;
  readonly duration: number;
  readonly status: TerminalCallStatus;
  readonly extractedVariables: Readonly<Record<string, unknown>>;
  /** The call's own input variables (make_call, chat-app call, automation step). */
  readonly inputVariables: Readonly<Record<string, string>>;
  readonly transcript: readonly TranscriptItem[];
  readonly recordingUrl: string | null;
  readonly createdAt: Date;
  readonly finishedAt: Date;
  /** For a campaign call: the contact called and the campaign, as they stand after the call's outcome. */
  readonly lead?: Readonly<Record<string, unknown>> | null;
  readonly campaign?: Readonly<Record<string, unknown>> | null;
}

/**
 * The `post_call` webhook body, keys in the documented order. `recording_url` is
 * present only when the assistant includes recordings in its webhook (null when none was made).
 */
export function postCallPayload(call: EndedCall, includeRecording: boolean): Record<string, unknown> {
  return {
    id: call.id,
    assistant_id: call.assistantId,
    customer_phone: call.customerPhone,
    assistant_phone: call.assistantPhone,
    duration: call.duration,
    status: call.status,
    extracted_variables: call.extractedVariables,
    input_variables: call.inputVariables,
    transcript: formatTranscript(call.transcript),
    ...(includeRecording ? { recording_url: call.recordingUrl } : {}),
    created_at: call.createdAt.toISOString(),
    finished_at: call.finishedAt.toISOString(),
    lead: call.lead ?? null,
    campaign: call.campaign ?? null,
  };
}
