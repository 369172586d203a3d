import { CallStatus } from './call-status';
import { TranscriptItem } from './call-end';
import { CallChannel, CallDirection } from './call';
import { RuntimeConfig } from './runtime-config';

/** A stored call, with the configuration it started with. */
export interface Call {
  readonly id: number;
  readonly userId: number;
  readonly assistantId: number;
  readonly direction: CallDirection;
  readonly channel: CallChannel;
  readonly status: CallStatus;
  readonly customerPhone: string;
  readonly assistantPhone: string | null;
  readonly phoneNumberId: number | null;
  readonly senderId: number | null;
  readonly conversationId: string | null;
  readonly automationRunId: string | null;
  /** The call's own input variables (not merged with the assistant's). */
  readonly variables: Readonly<Record<string, string>>;
  readonly extractedVariables: Readonly<Record<string, unknown>>;
  readonly duration: number;
  readonly cost: number;
  readonly recordingUrl: string | null;
  readonly endedReason: string | null;
  readonly transcript: readonly TranscriptItem[];
  readonly runtimeConfig: RuntimeConfig;
  readonly providerCallId: string | null;
  /** The campaign that placed the call and the lead contact it called; null for every other call. */
  readonly campaignId: number | null;
  readonly leadId: number | null;
  readonly createdAt: Date;
  readonly answeredAt: Date | null;
  readonly finishedAt: Date | null;
  readonly updatedAt: Date;
}

/** A list item: everything but the conversation and the configuration. */
export type CallSummary = Omit<Call, 'transcript' | 'runtimeConfig'>;
