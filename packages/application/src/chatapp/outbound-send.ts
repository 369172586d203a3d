import {
  allowancePeriod,
  allowanceRemaining,
  ChatappMessage,
  Conversation,
  err,
  MediaType,
  ok,
  recordMessage,
  Result,
  Sender,
  SendCharge,
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
import { ProviderSenders } from './provider-senders';

/** The chat app refused the message, or could not be reached (`send_failed`). */
export type SendFailed = { readonly code: 'send_failed'; readonly reason: string };

const UNREACHABLE_REASON = 'the chat app could not be reached';

/** The state a send is decided on, read under the user's balance lock and the conversation's lock (`balance` less open reservations). */
export interface SendState {
  /** Null when the recipient has no conversation and the send does not create one. */
  readonly conversation: Conversation | null;
  readonly balance: number;
  readonly allowanceRemaining: number;
  readonly now: Date;
}

export interface OutboundSend<E> {
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
  /** The charge, or a refusal; judged again under the locks because a concurrent send may have spent the balance. */
  readonly decide: (state: SendState) => Result<SendCharge, E>;
  /** `reference`: the message sid, which the provider keeps so a sweep can ask whether the send went out. */
  readonly deliver: (sender: ProviderSender, reference: string) => Promise<ProviderAcceptance>;
  /** Ledger text before the message sid. */
  readonly description: string;
  readonly requestId?: string | null;
  /**
   * The caller's own result, made from the send's inside its transaction: given, the send's
   * transaction concludes the caller's use case (see `TransactionOptions.concludes`).
   */
  readonly outcome?: (sent: Result<SentMessage, E | SendFailed>) => unknown;
}

export interface SentMessage {
  readonly conversation: Conversation;
  readonly messageId: number;
  readonly chatapp: ChatappMessage;
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
 * steps, so no transaction is open while the provider answers:
 * 1. reserve, one short transaction: the user's balance row is locked first (concurrent sends of
 *    one user are serialised here, and a balance that covers 20 sends pays for exactly 20 — open
 *    reservations count as spent), then the conversation; the decision is taken on that state and
 *    the price (or an allowance message) is held by a reservation row;
 * 2. the provider is called with the message sid as its reference, no lock held;
 * 3. settle: accepted — one short transaction in the same lock order writes the conversation, the
 *    message, its delivery record and the charge, and closes the reservation; refused — the
 *    reservation is given back and nothing of voiceplane's is stored.
 * A process that dies between 1 and 3 leaves an open reservation, which `SendReservationSweep`
 * settles by asking the provider about the reference. Closing the reservation commits with the
 * charge, so whoever settles first (the request or a sweep) charges, and nobody else does.
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

  async send<E>(o: OutboundSend<E>): Promise<Result<SentMessage, E | SendFailed>> {
    const { sender } = o;
    const providerSender = await this.providerSenders.of(sender);
    const reserved = await this.reserve(o);
    if (!reserved.ok) return reserved;
    const reservation = reserved.value;
    const acceptance = await this.deliver(o, providerSender, reservation.messageSid);
    if (!acceptance.ok) {
      await this.reservations.close(reservation.id, 'released', this.clock.now());
      return acceptance;
    }
    return ok((await this.settle(reservation, sender, acceptance.value, o.outcome))!);
  }

  /**
   * Records and charges a reserved send the provider took, and closes its reservation — null when
   * it was closed already. Also the sweep's way to settle a send whose process died.
   * `outcome`: the request's own result, committed with the charge (`OutboundSend.outcome`); a
   * request's reservation closed by someone else is then an error, as nothing of it may conclude.
   */
  settle(
    r: SendReservation,
    sender: Sender,
    acceptance: ProviderAcceptance,
    outcome?: (sent: Result<SentMessage, never>) => unknown,
  ): Promise<SentMessage | null> {
    const m = r.message;
    return this.uow.transaction(
      async (): Promise<SentMessage | null> => {
        const balance = (await this.users.lockBalance(r.userId)) ?? 0;
        // The settlement's lock order: the balance, then the conversation, then the reservation.
        const { conversation: existing, closed } = await this.reservations.closeLockingConversation(
          r.id,
          'sent',
          this.clock.now(),
          sender.id,
          r.recipientPhone,
        );
        if (!closed) {
          if (outcome) throw new Error(`chat-app send reservation ${r.id} was settled by someone else`);
          return null;
        }
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
        return { conversation: change.next, messageId: stored.messageId, chatapp: stored.chatapp };
      },
      { concludes: outcome ? (sent) => outcome(ok(sent!)) : false },
    );
  }

  private async reserve<E>(o: OutboundSend<E>): Promise<Result<SendReservation, E>> {
    const { sender } = o;
    const userId = sender.userId;
    // Only template sends need the plan (its allowance).
    const user = o.type === 'template' ? await this.users.findById(userId) : null;
    return this.uow.transaction(async (): Promise<Result<SendReservation, E>> => {
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
      const charge = o.decide({
        conversation: existing,
        balance: locked - held.amount,
        allowanceRemaining: allowance,
        now,
      });
      if (!charge.ok) return charge;
      if (existing === null && !o.createConversation) throw new Error('a send without conversation was not refused');
      return ok(
        await this.reservations.reserve({
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
        }),
      );
    });
  }

  private async deliver<E>(
    o: OutboundSend<E>,
    sender: ProviderSender,
    reference: string,
  ): Promise<Result<ProviderAcceptance, SendFailed>> {
    try {
      return ok(await o.deliver(sender, reference));
    } catch (e) {
      return err({ code: 'send_failed', reason: e instanceof ChatappProviderRefusal ? e.reason : UNREACHABLE_REASON });
    }
  }
}

/** `SM` + 32 lowercase hex characters. */
export function newMessageSid(ids: Ids): string {
  return `SM${ids.uuid().replace(/-/g, '')}`;
}
