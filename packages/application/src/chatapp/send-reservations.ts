import { Conversation, MediaType } from '@voiceplane/domain';

/** What a reserved send records once the provider took it. */
export interface ReservedMessage {
  readonly source: 'api' | 'automation' | 'ai';
  readonly type: 'template' | 'text' | 'media' | 'voice_call_request';
  readonly body: string | null;
  readonly media: { readonly url: string; readonly mediaType: MediaType; readonly filename: string | null } | null;
  readonly templateId: number | null;
  readonly recipientName: string | null;
  readonly createConversation: boolean;
  /** Ledger text before the message sid. */
  readonly description: string;
  readonly requestId: string | null;
}

export interface NewSendReservation {
  readonly userId: number;
  readonly senderId: number;
  readonly recipientPhone: string;
  /** The message's sid, given to the provider as the send's reference so a sweep can ask about it. */
  readonly messageSid: string;
  readonly amount: number;
  readonly fromAllowance: boolean;
  readonly message: ReservedMessage;
  readonly now: Date;
}

export interface SendReservation extends NewSendReservation {
  readonly id: number;
}

/** What the open reservations of a user hold: their prices and their allowance messages. */
export interface HeldBySends {
  readonly amount: number;
  readonly allowance: number;
}

/** How a reservation ended: charged and recorded, given back, or given back without knowing (the provider cannot be asked). */
export type ReservationOutcome = 'sent' | 'released' | 'unknown';

/**
 * Sends between their reservation and their settlement. An open reservation holds its price (and
 * an allowance message) against the user's balance for every other send decided meanwhile.
 */
export interface SendReservationRepository {
  /** What the user's open reservations hold; read under the user's balance lock. */
  held(userId: number): Promise<HeldBySends>;
  /**
   * `held`, then the send's conversation locked as `ConversationRepository.lock` does, in one round
   * trip (a send waits for each round trip of its reservation). Read under the user's balance lock,
   * so no reservation of the user can be added meanwhile; one closed while the conversation lock is
   * awaited is still counted, which only refuses what a moment later would have been accepted.
   */
  heldLockingConversation(
    userId: number,
    senderId: number,
    customerPhone: string,
  ): Promise<{ readonly held: HeldBySends; readonly conversation: Conversation | null }>;
  reserve(reservation: NewSendReservation): Promise<SendReservation>;
  /** Closes an open reservation; false when it was closed already (by the request or by a sweep). */
  close(id: number, outcome: ReservationOutcome, now: Date): Promise<boolean>;
  /**
   * The send's conversation locked as `ConversationRepository.lock` does, then `close`, in one round
   * trip (the settlement's order: conversation, then reservation).
   */
  closeLockingConversation(
    id: number,
    outcome: ReservationOutcome,
    now: Date,
    senderId: number,
    customerPhone: string,
  ): Promise<{ readonly closed: boolean; readonly conversation: Conversation | null }>;
  /** Open reservations made before `before`, oldest first. */
  open(before: Date, limit: number): Promise<SendReservation[]>;
}
