import {
  allowancePeriod,
  allowanceRemaining,
  ChatappMessage,
  Conversation,
  Err,
  err,
  MediaType,
  ok,
  recordMessage,
  Result,
  Sender,
  SessionStatus,
  sessionStatus,
} from '@voiceplane/domain';
import { BalanceService } from '../billing';
import { UserRepository } from '../ports';
import { Clock } from '../ports';
import { Ids } from '../ports';
import { Outbox } from '../ports';
import { UnitOfWork } from '../ports';
import { ConversationRepository } from '../conversations';
import { InactivitySchedule } from '../conversations';
import { messageStored } from './message-events';
import { ChatappMessageRepository, NewChatappMessage } from './ports';
import { SendReservation, SendReservationRepository } from './send-reservations';
import { ChatappProviderRefusal, ProviderAcceptance, ProviderSender } from './provider-ports';
import { chargeUnderLocks, RuleRefusal, SendRule } from './send-rules';
import { ProviderSenders } from './provider-senders';

/** The chat app refused the message, or could not be reached (`send_failed`). */
export type SendFailed = { readonly code: 'send_failed'; readonly reason: string };

const UNREACHABLE_REASON = 'the chat app could not be reached';

/** One outbound message and the rule that prices it under the send's locks. */
export interface OutboundMessage<R extends SendRule = SendRule> {
  readonly sender: Sender;
  readonly recipientPhone: string;
  readonly recipientName: string | null;
  readonly source: 'api' | 'automation' | 'ai';
  /** `voice_call_request`: the call-permission request template (free, extends the window like any template). */
  readonly type: 'template' | 'text' | 'media' | 'voice_call_request';
  readonly body: string | null;
  readonly media: { readonly url: string; readonly mediaType: MediaType; readonly filename: string | null } | null;
  readonly templateId: number | null;
  /** Template sends create the conversation; freeform sends and AI replies need one. */
  readonly createConversation: boolean;
  readonly rule: R;
  /** Ledger text before the message sid. */
  readonly description: string;
  readonly requestId?: string | null;
}

/** A reserved send: what the provider is called with (the message sid is its reference) and what settles it. */
export interface HeldSend {
  readonly reservation: SendReservation;
  readonly sender: Sender;
  readonly providerSender: ProviderSender;
}

export interface SentMessage {
  readonly conversation: Conversation;
  readonly messageId: number;
  readonly chatapp: ChatappMessage;
  /** The window as it is after the send (a freeform send never extends it, a template send does). */
  readonly sessionStatus: SessionStatus;
}

/** Where a send's user, conversation, message and reservation are stored, and the transactions around them. */
export interface OutboundSendStores {
  readonly uow: UnitOfWork;
  readonly users: UserRepository;
  readonly conversations: ConversationRepository;
  readonly messages: ChatappMessageRepository;
  readonly reservations: SendReservationRepository;
  /** Tells the account's event stream of each message sent, in the settling transaction. */
  readonly outbox: Outbox;
}

/** What a send consults and moves besides its records: the balance, the provider's sender, the inactivity clock. */
export interface OutboundSendServices {
  readonly balance: BalanceService;
  readonly providerSenders: ProviderSenders;
  readonly inactivity: InactivitySchedule;
}

/**
 * Every outbound chat-app message (template, freeform, AI reply, permission request) in three
 * steps its caller takes in order, so no transaction is open while the provider answers:
 * 1. `reserve`, one short transaction: the user's balance row is locked first (concurrent sends of
 *    one user are serialised here, and a balance that covers 20 sends pays for exactly 20 — open
 *    reservations count as spent), then the conversation; the send's rule is judged on that state
 *    and the price (or an allowance message) is held by a reservation row;
 * 2. the caller calls the provider with the message sid as its reference, no lock held; a refusal
 *    or an unreachable provider goes to `release`, which gives the reservation back;
 * 3. `settle`, one short transaction in the same lock order: the conversation, the message, its
 *    delivery record and the charge, and the reservation closed; a request's use case concludes in
 *    it, so its idempotent answer commits with the charge.
 * A process that dies between 1 and 3 leaves an open reservation, which `SendReservationSweep`
 * settles (`settleSwept`) by asking the provider about the reference. Closing the reservation
 * commits with the charge, so whoever settles first (the request or a sweep) charges, and nobody else does.
 */
export class OutboundSends {
  private readonly uow: UnitOfWork;
  private readonly users: UserRepository;
  private readonly conversations: ConversationRepository;
  private readonly messages: ChatappMessageRepository;
  private readonly reservations: SendReservationRepository;
  private readonly outbox: Outbox;
  private readonly balance: BalanceService;
  private readonly providerSenders: ProviderSenders;
  private readonly inactivity: InactivitySchedule;

  constructor(
    stores: OutboundSendStores,
    services: OutboundSendServices,
    private readonly ids: Ids,
    private readonly clock: Clock,
  ) {
    ({
      uow: this.uow,
      users: this.users,
      conversations: this.conversations,
      messages: this.messages,
      reservations: this.reservations,
      outbox: this.outbox,
    } = stores);
    ({ balance: this.balance, providerSenders: this.providerSenders, inactivity: this.inactivity } = services);
  }

  /** `included_template_messages_remaining` now (`held`: allowance messages of open reservations). */
  async allowanceRemaining(userId: number, includedPerMonth: number, now: Date, held = 0): Promise<number> {
    if (includedPerMonth <= 0) return 0;
    return allowanceRemaining(
      includedPerMonth,
      held + (await this.messages.allowanceUsed(userId, allowancePeriod(now).startsAt)),
    );
  }

  /** Step 1: judges `o.rule` under the balance and conversation locks and holds the price in a reservation. */
  async reserve<R extends SendRule>(o: OutboundMessage<R>): Promise<Result<HeldSend, RuleRefusal<R>>> {
    const { sender } = o;
    const userId = sender.userId;
    const providerSender = await this.providerSenders.of(sender);
    // Only template sends need the plan (its allowance).
    const user = o.type === 'template' ? await this.users.findById(userId) : null;
    return this.uow.transaction(async (): Promise<Result<HeldSend, RuleRefusal<R>>> => {
      const locked = (await this.users.lockBalance(userId)) ?? 0;
      const { held, conversation: existing } = await this.reservations.heldLockingConversation(
        userId,
        sender.id,
        o.recipientPhone,
      );
      const now = this.clock.now();
      const allowance =
        o.type === 'template'
          ? await this.allowanceRemaining(userId, user?.plan.included_template_messages ?? 0, now, held.allowance)
          : 0;
      const state = { conversation: existing, balance: locked - held.amount, allowanceRemaining: allowance, now };
      const charge = chargeUnderLocks(o.rule, sender, o.recipientPhone, state);
      if (!charge.ok) return charge;
      if (existing === null && !o.createConversation) throw new Error('a send without conversation was not refused');
      const reservation = await this.reservations.reserve({
        userId,
        senderId: sender.id,
        recipientPhone: o.recipientPhone,
        messageSid: newMessageSid(this.ids),
        amount: charge.value.amount,
        fromAllowance: charge.value.source === 'allowance',
        now,
        message: {
          source: o.source,
          type: o.type,
          body: o.body,
          media: o.media,
          templateId: o.templateId,
          recipientName: o.recipientName,
          createConversation: o.createConversation,
          description: o.description,
          requestId: o.requestId ?? null,
        },
      });
      return ok({ reservation, sender, providerSender });
    });
  }

  /** Step 2 failed: the provider refused the send (`failure`) or could not be reached; the reservation is given back. */
  async release(held: HeldSend, failure: unknown): Promise<Err<SendFailed>> {
    await this.reservations.close(held.reservation.id, 'released', this.clock.now());
    const reason = failure instanceof ChatappProviderRefusal ? failure.reason : UNREACHABLE_REASON;
    return err({ code: 'send_failed', reason });
  }

  /**
   * Step 3: records and charges a send the provider took, and closes its reservation, in one
   * transaction. `concludes`: the request's use case concludes here, so an idempotent request's
   * answer commits with the charge — its result is `ok` of the sent message, or what the given
   * function reads inside the transaction (a caller whose answer is not the message).
   */
  settle(
    held: HeldSend,
    acceptance: ProviderAcceptance,
    concludes: boolean | (() => Promise<unknown>),
  ): Promise<SentMessage> {
    const { reservation, sender } = held;
    return this.uow.transaction(
      async () => {
        const sent = await this.record(reservation, sender, acceptance);
        // Only the request settles its own reservation while it is alive: a sweep leaves young reservations alone.
        if (sent === null) throw new Error(`chat-app send reservation ${reservation.id} was settled by someone else`);
        return sent;
      },
      {
        concludes:
          typeof concludes === 'function'
            ? () => concludes()
            : concludes
              ? (sent: SentMessage): Result<SentMessage, never> => ok(sent)
              : false,
      },
    );
  }

  /** The sweep's settlement of a send whose process died: null when the reservation was closed already. */
  settleSwept(r: SendReservation, sender: Sender, acceptance: ProviderAcceptance): Promise<SentMessage | null> {
    return this.uow.transaction(() => this.record(r, sender, acceptance));
  }

  private async record(
    r: SendReservation,
    sender: Sender,
    acceptance: ProviderAcceptance,
  ): Promise<SentMessage | null> {
    const m = r.message;
    const balance = (await this.users.lockBalance(r.userId)) ?? 0;
    // The settlement's lock order: the balance, then the conversation, then the reservation.
    const { conversation: existing, closed } = await this.reservations.closeLockingConversation(
      r.id,
      'sent',
      this.clock.now(),
      sender.id,
      r.recipientPhone,
    );
    if (!closed) return null;
    const now = r.now;
    const conversation =
      existing ??
      (await this.conversations.lockOrCreate({
        userId: r.userId,
        senderId: sender.id,
        customerPhone: r.recipientPhone,
        uuid: this.ids.uuid(),
        now,
      }));
    const change = recordMessage(conversation, {
      source: m.source,
      type: m.type,
      at: now,
      assistantId: sender.assistantId,
      customerName: m.recipientName,
    });
    const message: NewChatappMessage = {
      userId: r.userId,
      conversationId: conversation.id,
      senderId: sender.id,
      direction: 'outbound',
      source: m.source,
      type: m.type,
      body: m.body,
      media: m.media,
      templateId: m.templateId,
      from: sender.phoneNumber,
      to: r.recipientPhone,
      messageSid: r.messageSid,
      providerMessageId: acceptance.providerMessageId,
      status: acceptance.status,
      cost: r.amount,
      fromAllowance: r.fromAllowance,
      now,
    };
    const stored = await this.messages.recordSaving(change.next, message);
    await this.outbox.add([messageStored(change.next, message, stored.chatapp)]);
    if (r.amount > 0) {
      // The reservation held this price against every other send, so only a charge outside the
      // chat app (a call's end, a number renewal) can have spent it meanwhile; the message went out
      // and is paid for even then.
      const charged = await this.balance.charge({
        userId: r.userId,
        price: r.amount,
        description: `${m.description} ${r.messageSid}`,
        mayGoNegative: true,
        reference: { type: 'chatapp_message', id: stored.chatapp.id },
        requestId: m.requestId,
        heldBalance: balance,
      });
      if (!charged.ok)
        throw new Error(`chat-app message ${stored.chatapp.id} could not be charged: ${charged.error.code}`);
    }
    await this.inactivity.afterMessage(change.next, change, existing === null || existing.messageCount === 0);
    return {
      conversation: change.next,
      messageId: stored.messageId,
      chatapp: stored.chatapp,
      sessionStatus: sessionStatus(change.next.window, this.clock.now()),
    };
  }
}

/** `SM` + 32 lowercase hex characters. */
export function newMessageSid(ids: Ids): string {
  return `SM${ids.uuid().replace(/-/g, '')}`;
}
