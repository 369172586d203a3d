import {
  allowancePeriod, allowanceRemaining, ChatappMessage, Conversation, err, MediaType, ok, recordMessage, Result, Sender, SendCharge,
} from '@voiceplane/domain';
import { BalanceService } from '../billing/balance-service';
import { UserRepository } from '../ports/accounts';
import { Clock } from '../ports/clock';
import { Ids } from '../ports/ids';
import { UnitOfWork } from '../ports/unit-of-work';
import { ConversationRepository } from '../conversations/ports';
import { InactivitySchedule } from '../conversations/inactivity-schedule';
import { ChatappMessageRepository } from './ports';
import { ChatappProviderRefusal, ProviderAcceptance, ProviderSender } from './provider-ports';
import { ProviderSenders } from './provider-senders';

/** The chat app refused the message, or could not be reached (`SEND_FAILED`). */
export type SendFailed = { readonly code: 'SEND_FAILED'; readonly reason: string };

const UNREACHABLE_REASON = 'the chat app could not be reached';

/** The state a send is decided on, read under the user's balance lock and the conversation's lock. */
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
  readonly deliver: (sender: ProviderSender) => Promise<ProviderAcceptance>;
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

/**
 * Every outbound chat-app message (template, freeform, AI reply) as one transaction: the user's
 * balance row is locked first, so concurrent sends of one user are serialised and a balance that
 * covers 20 sends pays for exactly 20. The provider is called inside that transaction after the
 * checks and before anything is written: a refusal commits nothing of voiceplane's (no
 * conversation, message or charge), while what the provider itself records (the sandbox's outbox
 * and its used-up faults) commits like any provider's state would. The price of holding the lock
 * over the provider's round trip — a user's sends wait for each other — stays below the 5 sends per
 * second a user may make anyway.
 */
export class OutboundSends {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly users: UserRepository,
    private readonly conversations: ConversationRepository,
    private readonly messages: ChatappMessageRepository,
    private readonly balance: BalanceService,
    private readonly providerSenders: ProviderSenders,
    private readonly inactivity: InactivitySchedule,
    private readonly ids: Ids,
    private readonly clock: Clock,
  ) {}

  /** `included_template_messages_remaining` now. */
  async allowanceRemaining(userId: number, includedPerMonth: number, now: Date): Promise<number> {
    if (includedPerMonth <= 0) return 0;
    return allowanceRemaining(includedPerMonth, await this.messages.allowanceUsed(userId, allowancePeriod(now).startsAt));
  }

  async send<E>(o: OutboundSend<E>): Promise<Result<SentMessage, E | SendFailed>> {
    const { sender } = o;
    const userId = sender.userId;
    const providerSender = await this.providerSenders.of(sender);
    // Only template sends need the plan (its allowance).
    const user = o.type === 'template' ? await this.users.findById(userId) : null;
    return this.uow.transaction(async (): Promise<Result<SentMessage, E | SendFailed>> => {
      const balance = (await this.users.lockBalance(userId)) ?? 0;
      const now = this.clock.now();
      const existing = await this.conversations.lock(sender.id, o.recipientPhone);
      const allowance = o.type === 'template' ? await this.allowanceRemaining(userId, user?.plan.included_template_messages ?? 0, now) : 0;
      const charge = o.decide({ conversation: existing, balance, allowanceRemaining: allowance, now });
      if (!charge.ok) return charge;
      if (existing === null && !o.createConversation) throw new Error('a send without conversation was not refused');
      const acceptance = await this.deliver(o, providerSender);
      if (!acceptance.ok) return acceptance;
      const conversation = existing
        ?? await this.conversations.lockOrCreate({ userId, senderId: sender.id, customerPhone: o.recipientPhone, uuid: this.ids.uuid(), now });
      const change = recordMessage(conversation, {
        source: o.source, type: o.type, at: now, assistantId: sender.assistantId, customerName: o.recipientName,
      });
      await this.conversations.save(change.next);
      const stored = await this.messages.record({
        userId, conversationId: conversation.id, senderId: sender.id, direction: 'outbound', source: o.source, type: o.type,
        body: o.body, media: o.media, templateId: o.templateId, from: sender.phoneNumber, to: o.recipientPhone,
        messageSid: newMessageSid(this.ids), providerMessageId: acceptance.value.providerMessageId, status: acceptance.value.status,
        cost: charge.value.amount, fromAllowance: charge.value.source === 'allowance', now,
      });
      if (charge.value.amount > 0) {
        const charged = await this.balance.charge({
          userId, price: charge.value.amount, description: `${o.description} ${stored.chatapp.messageSid}`,
          reference: { type: 'chatapp_message', id: stored.chatapp.id }, requestId: o.requestId ?? null, heldBalance: balance,
        });
        if (!charged.ok) throw new Error(`chat-app message ${stored.chatapp.id} could not be charged: ${charged.error.code}`);
      }
      await this.inactivity.afterMessage(change.next, change, existing === null || existing.messageCount === 0);
      return ok({ conversation: change.next, messageId: stored.messageId, chatapp: stored.chatapp });
    }, { concludes: o.outcome ?? false });
  }

  private async deliver<E>(o: OutboundSend<E>, sender: ProviderSender): Promise<Result<ProviderAcceptance, SendFailed>> {
    try {
      return ok(await o.deliver(sender));
    } catch (e) {
      return err({ code: 'SEND_FAILED', reason: e instanceof ChatappProviderRefusal ? e.reason : UNREACHABLE_REASON });
    }
  }
}

/** `SM` + 32 lowercase hex characters. */
export function newMessageSid(ids: Ids): string {
  return `SM${ids.uuid().replace(/-/g, '')}`;
}
