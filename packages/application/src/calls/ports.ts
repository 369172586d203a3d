import {
  Call,
  CallChannel,
  CallDirection,
  OpenCallCounts,
  CallerLine,
  CallStatus,
  CallSummary,
  InvalidTransition,
  Result,
  RuntimeConfig,
  RuntimeEventType,
  SipLine,
  TerminalCallStatus,
  TranscriptItem,
} from '@voiceplane/domain';
import { NewOutboxEvent } from '../ports';
import { Page, PageRequest } from '../common';

export interface NewCall {
  readonly userId: number;
  readonly assistantId: number;
  readonly direction: CallDirection;
  readonly channel: CallChannel;
  readonly status: CallStatus;
  readonly customerPhone: string;
  readonly line: CallerLine | null;
  readonly variables: Readonly<Record<string, string>>;
  readonly runtimeConfig: RuntimeConfig;
  /** The runtime's id of an inbound call; a second call with the same id is the same call. */
  readonly providerCallId?: string | null;
  readonly senderId?: number | null;
  readonly conversationId?: string | null;
  readonly automationRunId?: string | null;
  /** A campaign call: the campaign and the lead contact it calls. */
  readonly campaignId?: number | null;
  readonly leadId?: number | null;
  readonly now: Date;
}

/** Fields an event changes; absent keys stay as they are. */
export interface CallChanges {
  readonly status?: CallStatus;
  readonly answeredAt?: Date;
  readonly finishedAt?: Date;
  readonly duration?: number;
  readonly cost?: number;
  readonly recordingUrl?: string | null;
  readonly endedReason?: string | null;
  readonly extractedVariables?: Readonly<Record<string, unknown>>;
  readonly transcript?: readonly TranscriptItem[];
}

export interface CallFilter {
  readonly assistantId?: number;
  readonly status?: CallStatus;
  readonly direction?: CallDirection;
  readonly channel?: CallChannel;
  readonly customerPhone?: string;
  /** Calls placed by this automation run. */
  readonly automationRunId?: string;
  readonly campaignId?: number;
  /** Bounds on `created_at`, inclusive. */
  readonly from?: Date;
  readonly to?: Date;
}

/** Where an inbound call arrived: an owned number and the inbound assistant on it, if any. */
export interface InboundRoute {
  readonly userId: number;
  readonly phoneNumberId: number;
  readonly phoneNumber: string;
  readonly sip: SipLine | null;
  readonly assistantId: number | null;
}

/** A runtime event already accepted for a call, and the status it answered with. */
export interface AcceptedRuntimeEvent {
  readonly type: RuntimeEventType;
  readonly status: CallStatus;
}

/** What a change decided about a locked call. */
export interface CallChange<A> {
  /** Fields to write; none: the call is not written at all (its `updated_at` stays). */
  readonly changes: CallChanges;
  /** Raised by the change; written to the outbox after the call, in this order. */
  readonly events?: readonly NewOutboxEvent[];
  /** When the change happened (`updated_at`). */
  readonly at: Date;
  /** What the caller gets back. */
  readonly answer: A;
}

export type CallNotFound = { readonly code: 'call_not_found' };

/** A sender's chat-app calls as the limits count them. */
export interface ChatappCallActivity {
  /** Statuses of the sender's chat-app calls not yet ended. */
  readonly openStatuses: readonly CallStatus[];
  /** When each chat-app call to the contact since `since` was queued. */
  readonly contactAttempts: readonly Date[];
}

export interface CallRepository {
  /** Creates the call; with a `providerCallId` already used, returns that call instead (`created` false). */
  create(call: NewCall): Promise<{ readonly call: Call; readonly created: boolean }>;
  /** Null for a missing id and for another user's call alike. */
  findOwned(userId: number, id: number): Promise<Call | null>;
  /** Newest first. */
  list(userId: number, filter: CallFilter, page: PageRequest): Promise<Page<CallSummary>>;
  /** Any user's call (runtime side). */
  findById(id: number): Promise<Call | null>;
  findByProviderCallId(providerCallId: string): Promise<Call | null>;
  /** Calls of the user not yet in a terminal status. */
  /** The account's calls not yet ended, per channel (their first minutes are reserved against the balance). */
  openCallCounts(userId: number): Promise<OpenCallCounts>;
  countActive(userId: number): Promise<number>;
  /**
   * Changes a call that concurrent runtime events and dispatch failures also change: in one
   * transaction (the caller's, when there is one) locks the call, hands it to `decide`, then writes
   * the changes and the events it returned. What `decide` writes through other ports (a charge, a
   * delivery) commits with them. A refusal writes nothing of the call's; `decide` refuses before it
   * writes anything elsewhere.
   */
  update<A, E>(
    id: number,
    decide: (call: Call) => Promise<Result<CallChange<A>, E>>,
  ): Promise<Result<A, E | CallNotFound>>;
  /**
   * Deletes the owner's call with what hangs on it (runtime events, a chat-app report): in one transaction
   * locks the call, hands it to `decide`, and deletes it when `decide` agrees. What `decide` deletes through
   * other ports commits with it; a refusal deletes nothing. Another account's call is not found.
   */
  delete<E>(
    userId: number,
    id: number,
    decide: (call: Call) => Promise<Result<void, E>>,
  ): Promise<Result<Call, E | CallNotFound>>;
  findRuntimeEvent(callId: number, eventId: string): Promise<AcceptedRuntimeEvent | null>;
  recordRuntimeEvent(callId: number, eventId: string, event: AcceptedRuntimeEvent, at: Date): Promise<void>;
  /**
   * The sender's open chat-app calls and the contact's attempts since `since` (the chat-app
   * call limits). With `lock`, inside a transaction, holds the sender's call line until it ends, so
   * concurrent calls of one sender are judged one after the other.
   */
  chatappActivity(senderId: number, customerPhone: string, since: Date, lock: boolean): Promise<ChatappCallActivity>;
  /**
   * The owned number an inbound call reached: by the provider's inbound trunk id when given,
   * else by the dialled number.
   */
  inboundRoute(to: string, inboundTrunkId: string | null): Promise<InboundRoute | null>;
}

/** A call handed to the voice runtime. */
export interface CallToPlace {
  readonly callId: number;
  readonly userId: number;
  readonly customerPhone: string;
  readonly line: CallerLine;
  /** Seconds the customer's phone may ring (assistant `ringing_time`). */
  readonly ringingTimeSeconds: number;
  /** Seconds after which the runtime hangs up (assistant `max_duration`). */
  readonly maxDurationSeconds: number;
}

/**
 * The engine that runs calls. It reports their lifecycle back through the runtime ingress
 * (`RecordCallEvent`), in-process for the sandbox and over HTTP for a real runtime.
 */
export interface VoiceRuntime {
  /** The line a call leaves from when its assistant has no number; null when the platform has none. */
  readonly platformLine: CallerLine | null;
  /** Resolves once the runtime took the call; throws when it refused it. */
  placeCall(call: CallToPlace): Promise<void>;
}

/** How the runtime ingress answered an accepted lifecycle event. */
export interface CallEventAnswer {
  readonly callId: number;
  readonly status: CallStatus;
  readonly duplicate: boolean;
}

export type CallEventRefusal = { readonly code: 'call_not_found' } | InvalidTransition;

/** What the sandbox `finish` may say about a sandbox call's end. */
export interface SandboxFinish {
  readonly status: TerminalCallStatus;
  readonly duration?: number;
  readonly transcript?: readonly TranscriptItem[];
  readonly extractedVariables?: Readonly<Record<string, unknown>>;
  readonly recordingUrl?: string | null;
  /** Absent: what a real runtime would report for the status (`customer_hangup` for a completed call). */
  readonly endedReason?: string;
}

/** The sandbox voice runtime's controls (`answer`, `finish`): act on the caller's own calls only. */
export interface SandboxCallControls {
  answer(userId: number, callId: number): Promise<Result<CallEventAnswer, CallEventRefusal>>;
  finish(userId: number, callId: number, finish: SandboxFinish): Promise<Result<CallEventAnswer, CallEventRefusal>>;
}

/** What a campaign call's `post_call` payload says of its lead and campaign (each null once deleted). */
export interface PlacedBy {
  readonly lead: Record<string, unknown> | null;
  readonly campaign: Record<string, unknown> | null;
}

/**
 * The campaign side of a call end, inside the transaction that accepts it: the lead's attempt
 * outcome. Null for a call no campaign placed.
 */
export interface CampaignCallOutcomes {
  apply(call: Call, status: TerminalCallStatus, at: Date, now: Date): Promise<PlacedBy | null>;
}
