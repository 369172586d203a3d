import { TerminalCallStatus } from './call-status';
import type { TranscriptItem } from './call-end';

export const CALL_DIRECTIONS = ['outbound', 'inbound'] as const;
export const CALL_CHANNELS = ['phone', 'chatapp'] as const;
export type CallDirection = (typeof CALL_DIRECTIONS)[number];
export type CallChannel = (typeof CALL_CHANNELS)[number];

/** How an outbound call leaves a SIP trunk (runtime config `sip`). */
export interface SipLine {
  readonly outboundTrunkId: string;
  readonly callingFormat: string;
  readonly outboundProxy: boolean;
}

/**
 * The line a call is placed from or arrived on: an owned number (SIP trunk or purchased number),
 * or the platform's default line (`phoneNumberId` null).
 */
export interface CallerLine {
  readonly phoneNumberId: number | null;
  readonly phoneNumber: string;
  /** Null for lines that are not SIP trunks (purchased numbers, the platform line). */
  readonly sip: SipLine | null;
}

/** What the runtime says about a call's end (`ended` event data). */
export interface CallOutcome {
  readonly status: TerminalCallStatus;
  /** Seconds, when the runtime measured them. */
  readonly duration?: number;
  readonly recordingUrl?: string | null;
  /** The final transcript; replaces what `transcript` events appended. */
  readonly transcript?: readonly TranscriptItem[];
  readonly extractedVariables?: Readonly<Record<string, unknown>>;
  readonly endedReason?: string | null;
}
