import { SmsEncoding, SmsStatus } from '@voiceplane/domain';
import { Page, PageRequest } from '../common';

/**
 * Where an SMS is in its send: `pending` holds its cost against the balance while the provider is
 * asked; `settled` was taken by the provider and charged; `released` never left and cost nothing.
 */
export type SmsSettlement = 'pending' | 'settled' | 'released';

export interface NewSmsMessage {
  readonly userId: number;
  readonly phoneNumberId: number;
  readonly from: string;
  readonly to: string;
  readonly body: string;
  readonly encoding: SmsEncoding;
  readonly segments: number;
  readonly cost: number;
  readonly requestId: string | null;
  readonly now: Date;
}

export interface SmsMessage extends Omit<NewSmsMessage, 'now'> {
  readonly id: number;
  readonly settlement: SmsSettlement;
  readonly status: SmsStatus;
  readonly providerMessageId: string | null;
  readonly errorCode: string | null;
  readonly errorMessage: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** A delivery report for one message: the provider's status word and, on failure, its error. */
export interface SmsStatusReport {
  /** voiceplane's id of the message, as the provider was given it (its reference). */
  readonly reference: number;
  readonly providerMessageId: string;
  readonly status: SmsStatus;
  readonly errorCode: string | null;
  readonly errorMessage: string | null;
}

/**
 * The SMS log of each account. A message is recorded before the provider is asked (as `pending`,
 * holding its cost), so concurrent sends of one account see what the others hold.
 */
export interface SmsMessageRepository {
  /** The cost of the account's `pending` messages; read under the account's balance lock. */
  held(userId: number): Promise<number>;
  reserve(message: NewSmsMessage): Promise<SmsMessage>;
  /** `pending` → `settled` with the provider's id; null when it was not pending any more. */
  settle(id: number, providerMessageId: string, now: Date): Promise<SmsMessage | null>;
  /** `pending` → `released`, status `failed`, cost 0, with the reason; false when it was not pending. */
  release(id: number, reason: string, now: Date): Promise<boolean>;
  /**
   * Applies a delivery report to the message it names (also while still `pending`: a report may
   * outrun the settlement). The provider id must match once known; a `pending` message without one
   * keeps it (proof the provider took it, for the sweep); `next` decides the status change.
   * Null when no such message or its status did not change.
   */
  report(
    report: SmsStatusReport,
    next: (current: SmsStatus) => SmsStatus | null,
    now: Date,
  ): Promise<SmsMessage | null>;
  find(userId: number, id: number): Promise<SmsMessage | null>;
  /** Newest first. */
  list(userId: number, page: PageRequest): Promise<Page<SmsMessage>>;
  /** `pending` messages recorded before `before`, oldest first: sends whose process died before settling. */
  stalePending(before: Date, limit: number): Promise<SmsMessage[]>;
}

/** What the provider is asked to send; `reference` is voiceplane's message id, echoed in its reports. */
export interface OutboundSms {
  readonly userId: number;
  readonly phoneNumberId: number;
  readonly from: string;
  readonly to: string;
  readonly body: string;
  readonly reference: number;
}

/** The provider refused the message or could not be reached: nothing was sent. */
export class SmsProviderRefusal extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'SmsProviderRefusal';
  }
}

/** The SMS carrier gateway (Twilio's Messages API, or the sandbox). */
export interface SmsProvider {
  readonly name: 'sandbox' | 'twilio';
  /** Resolves with the provider's message id once it took the message; throws `SmsProviderRefusal` otherwise. */
  send(message: OutboundSms): Promise<{ readonly providerMessageId: string }>;
  /**
   * Optional: the provider's id of the message sent with this reference, or null when it never took
   * it. A provider that cannot be asked leaves the sweep to its delivery reports.
   */
  findSent?(message: OutboundSms): Promise<string | null>;
}

/**
 * A provider's signed delivery reports as the HTTP route sees them: the signature is checked here,
 * where the provider's secret is; the route only carries the URL and the form in.
 */
export interface SmsStatusGate {
  readonly provider: 'twilio';
  /**
   * The report, or null when the signature does not hold over this request: `pathAndQuery` as
   * received, put on the public origin the callback was registered with.
   */
  open(pathAndQuery: string, form: Readonly<Record<string, string>>, signature: string | null): SmsStatusReport | null;
}

/** A message the sandbox SMS provider took (listed by its outbox). */
export interface SandboxSmsSent {
  readonly userId: number;
  readonly phoneNumberId: number;
  readonly from: string;
  readonly to: string;
  readonly body: string;
  readonly providerMessageId: string;
  readonly at: Date;
}

/**
 * The sandbox SMS provider's own state, kept in the database so every api instance sees the same
 * sandbox: what it sent, and the faults armed for it (`sms_send`, per account or per number).
 */
export interface SandboxSmsState {
  /** A fault of `faultKind` armed for the number (or for any of the user's sends) claims the send; otherwise it is recorded. */
  accept(message: SandboxSmsSent, faultKind: string): Promise<'sent' | 'faulted'>;
  /** Arming the same scope again replaces what was left; answers how many sends will fail. */
  armFault(arming: { userId: number; targetId: number | null; count: number; kind: string }): Promise<number>;
  /** Newest first. */
  outbox(userId: number, limit: number): Promise<SandboxSmsSent[]>;
  /** Whether the user's send with this provider id was recorded. */
  wasSent(userId: number, providerMessageId: string): Promise<boolean>;
}
