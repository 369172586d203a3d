import {
  aiReplyFate,
  Assistant,
  ChatbotType,
  chatHistory,
  ChatHistoryItem,
  Conversation,
  ConversationMessage,
  err,
  FunctionCallRecord,
  functionCallsOf,
  isWebChat,
  mergeVariables,
  ok,
  planUserMessage,
  recordMessage,
  refundPosting,
  Result,
  canStartChat,
  withinDailyCap,
  capPeriodStart,
} from '@voiceplane/domain';
import { AssistantRepository } from '../assistants';
import { BalanceService } from '../billing';
import { CallConfigurations } from '../calls';
import { ConversationBrain } from '../conversation-policy';
import { conversationTexts } from '../conversation-policy';
import { EndInactiveConversation } from '../conversations';
import { InactivitySchedule } from '../conversations';
import { ConversationRef, ConversationRepository } from '../conversations';
import { WorkLogger } from '../events';
import { LedgerRepository, UserRepository } from '../ports';
import { Clock } from '../ports';
import { Ids } from '../ports';
import { Outbox } from '../ports';
import { UnitOfWork } from '../ports';
import { InvokeToolForConversation } from '../tools';
import { chatSetup, chatTurn } from './chat-turn';
import { liveChatMessage, ReplyDrafts, WEB_CHAT_MESSAGE_TOPIC } from './live-chat';
import { WebChatRepository } from './ports';

/** An assistant as a request names it: by integer id or by its UUID. */
export type AssistantRef = { readonly id: number } | { readonly uuid: string };

export interface StartChat {
  readonly assistant: AssistantRef;
  readonly type: ChatbotType;
  readonly variables: Readonly<Record<string, string>>;
  /** A widget visitor's token, hashed: only its holder reads and writes the chat through the widget. */
  readonly visitorTokenHash?: string;
}

export interface StartedChat {
  readonly conversation: Conversation;
  readonly history: ChatHistoryItem[];
}

/** The assistant's answer to a user message; `reply` null when a human has taken over (AI off). */
export interface ChatReply {
  readonly conversation: Conversation;
  readonly reply: string | null;
  readonly functionCalls: readonly FunctionCallRecord[];
  readonly aiDisabled: boolean;
}

export interface ExternalMessage {
  readonly assistant: AssistantRef;
  readonly customerIdentifier: string;
  readonly message: string;
  readonly variables?: Readonly<Record<string, string>>;
}

export type ReplyRefusal =
  | 'conversation_not_found'
  | 'insufficient_balance'
  | 'processing_failed'
  | 'daily_cap_reached';

/** A widget's daily spending cap, checked under the balance lock with the charge it would allow. */
export interface SpendingCap {
  readonly assistantId: number;
  readonly limit: number;
}

/** What web chats read and write. */
export interface WebChatRecords {
  readonly uow: UnitOfWork;
  readonly users: UserRepository;
  readonly ledger: LedgerRepository;
  readonly balance: BalanceService;
  readonly assistants: AssistantRepository;
  readonly conversations: ConversationRepository;
  readonly chats: WebChatRepository;
  readonly outbox: Outbox;
}

/** How the assistant answers: the one conversation policy, the configuration it reads, its tools, and the end of a chat. */
export interface WebChatPolicy {
  readonly brain: ConversationBrain;
  readonly configurations: CallConfigurations;
  readonly tools: InvokeToolForConversation;
  readonly schedule: InactivitySchedule;
  readonly ending: EndInactiveConversation;
  /** The freeform message price: what one answered user message of a billed chat costs. */
  readonly messagePrice: number;
  /** Where a reply goes piece by piece while the model writes it (the widget shows it growing). */
  readonly drafts: ReplyDrafts;
}

/**
 * Web chats — the chatbot's `widget` and `test` conversations and the `external` conversations of
 * a customer's own channel: one assistant each, answered by the conversation policy (instructions
 * with the chat's variables, mid-call tools through the gateway, knowledge base, `end_call` ending
 * the chat). A user message the assistant answers is charged once, under the account's balance
 * lock, before the model is asked; a reply that never comes gives the charge back.
 */
export class WebChats {
  constructor(
    private readonly records: WebChatRecords,
    private readonly policy: WebChatPolicy,
    private readonly clock: Clock,
    private readonly ids: Ids,
    private readonly log: WorkLogger,
  ) {}

  findAssistant(userId: number, ref: AssistantRef): Promise<Assistant | null> {
    return 'id' in ref
      ? this.records.assistants.findOwned(userId, ref.id)
      : this.records.assistants.findOwnedByUuid(userId, ref.uuid);
  }

  /** A new chat with the assistant's first message (its `initial_message` with the chat's variables) as its history. */
  async start(
    userId: number,
    request: StartChat,
  ): Promise<Result<StartedChat, 'assistant_not_found' | 'insufficient_balance'>> {
    const assistant = await this.findAssistant(userId, request.assistant);
    if (assistant === null) return err('assistant_not_found');
    const now = this.clock.now();
    const greeting = conversationTexts(
      await chatSetup(this.policy.configurations, assistant, request.variables),
      now,
    ).initialMessage.trim();
    const history: ChatHistoryItem[] = greeting === '' ? [] : [{ role: 'assistant', content: greeting }];
    const started = await this.records.uow.transaction(
      async () => {
        const balance = (await this.records.users.lockBalance(userId)) ?? 0;
        if (!canStartChat(request.type, balance, this.policy.messagePrice)) return null;
        const created = await this.records.chats.create({
          userId,
          assistantId: assistant.id,
          type: request.type,
          uuid: this.ids.uuid(),
          variables: request.variables,
          externalIdentifier: null,
          visitorTokenHash: request.visitorTokenHash ?? null,
          now,
        });
        const conversation =
          greeting === ''
            ? created
            : await this.store(created, { source: 'ai', body: greeting, functionCalls: null, now });
        await this.policy.schedule.afterMessage(conversation, { events: [] }, true);
        return conversation;
      },
      { concludes: (conversation) => startedChat(conversation, history) },
    );
    return startedChat(started, history);
  }

  /** A web chat of the account with its history, oldest first; a chat-app conversation is not one. */
  async history(userId: number, ref: ConversationRef): Promise<Result<StartedChat, 'conversation_not_found'>> {
    const conversation = await this.records.conversations.findOwned(userId, ref);
    if (conversation === null || !isWebChat(conversation)) return err('conversation_not_found');
    return ok({
      conversation,
      history: chatHistory(await this.records.conversations.recentMessages(conversation.id, 500)),
    });
  }

  /** The user's message stored (and charged), then the assistant's answer. */
  async send(
    userId: number,
    ref: ConversationRef,
    text: string,
    cap: SpendingCap | null = null,
  ): Promise<Result<ChatReply, ReplyRefusal>> {
    const found = await this.records.conversations.findOwned(userId, ref);
    if (found === null || !isWebChat(found)) return err('conversation_not_found');
    const now = this.clock.now();
    // A refusal, or a message no AI answers, is the request's outcome: it concludes in this commit.
    const concluding = <T>(result: T, outcome: Result<ChatReply, ReplyRefusal>) =>
      this.records.uow.transaction(async () => result, { concludes: () => outcome });
    const accepted = await this.records.uow.transaction(async () => {
      const balance = (await this.records.users.lockBalance(userId)) ?? 0;
      const locked = await this.records.conversations.lockById(found.id);
      if (locked === null)
        return concluding(err({ code: 'conversation_not_found' as const }), err('conversation_not_found'));
      const plan = planUserMessage(locked, balance, this.policy.messagePrice);
      if (!plan.ok) return concluding(plan, err(plan.error.code));
      // All sends of the account hold its balance lock here, so the day's spending is read settled.
      if (
        cap !== null &&
        plan.value.charge > 0 &&
        !withinDailyCap(
          await this.records.chats.widgetSpentSince(cap.assistantId, capPeriodStart(now)),
          plan.value.charge,
          cap.limit,
        )
      ) {
        return concluding(err({ code: 'daily_cap_reached' as const }), err('daily_cap_reached'));
      }
      const { conversation, message } = await this.storeMessage(locked, {
        source: 'customer',
        body: text,
        functionCalls: null,
        now,
      });
      if (plan.value.charge > 0) {
        const charged = await this.records.balance.charge({
          userId,
          price: plan.value.charge,
          description: `Web chat message (${conversation.type})`,
          heldBalance: balance,
          reference: { type: 'conversation_message', id: message.id },
        });
        if (!charged.ok) throw new Error('a web chat charge was refused under the balance lock that allowed it');
      }
      const taken = ok({
        conversation,
        charge: { amount: plan.value.charge, messageId: message.id },
        reply: plan.value.reply,
      });
      return plan.value.reply ? taken : concluding(taken, ok(aiOff(conversation)));
    });
    if (!accepted.ok) return err(accepted.error.code);
    const { conversation, charge } = accepted.value;
    if (!accepted.value.reply) return ok(aiOff(conversation));
    return this.answer(conversation, charge, now);
  }

  /** A customer's message on their own channel: their conversation with the assistant found (or started) by the identifier, then answered. */
  async external(
    userId: number,
    request: ExternalMessage,
  ): Promise<Result<ChatReply, ReplyRefusal | 'assistant_not_found'>> {
    const assistant = await this.findAssistant(userId, request.assistant);
    if (assistant === null) return err('assistant_not_found');
    const now = this.clock.now();
    const conversation = await this.records.uow.transaction(async () => {
      const held = await this.records.chats.lockOrCreateExternal({
        userId,
        assistantId: assistant.id,
        type: 'external',
        uuid: this.ids.uuid(),
        variables: request.variables ?? {},
        externalIdentifier: request.customerIdentifier,
        now,
      });
      if (held.created) {
        await this.policy.schedule.afterMessage(held.conversation, { events: [] }, true);
        return held.conversation;
      }
      if (request.variables === undefined || Object.keys(request.variables).length === 0) return held.conversation;
      const merged = {
        ...held.conversation,
        variables: mergeVariables(held.conversation.variables, request.variables),
      };
      await this.records.conversations.save(merged);
      return merged;
    });
    return this.send(userId, { id: conversation.id }, request.message);
  }

  /** A human's answer in a web chat (after a takeover, or beside the assistant): stored and shown live; never charged. */
  async humanReply(
    userId: number,
    ref: ConversationRef,
    text: string,
  ): Promise<Result<ConversationMessage, 'conversation_not_found'>> {
    const found = await this.records.conversations.findOwned(userId, ref);
    if (found === null || !isWebChat(found)) return err('conversation_not_found');
    const now = this.clock.now();
    return this.records.uow.transaction(
      async (): Promise<Result<ConversationMessage, 'conversation_not_found'>> => {
        const locked = await this.records.conversations.lockById(found.id);
        if (locked === null) return err('conversation_not_found');
        const stored = await this.storeMessage(locked, { source: 'api', body: text, functionCalls: null, now });
        return ok(stored.message);
      },
      { concludes: true },
    );
  }

  /** Runs the policy outside any transaction, then stores the reply — unless a human took over meanwhile. */
  private async answer(
    conversation: Conversation,
    charge: Charge,
    askedAt: Date,
  ): Promise<Result<ChatReply, ReplyRefusal>> {
    const assistant =
      conversation.assistantId === null
        ? null
        : await this.records.assistants.findOwned(conversation.userId, conversation.assistantId);
    if (assistant === null) {
      await this.refund(conversation, charge, 'the assistant no longer exists');
      return err('processing_failed');
    }
    let turn: Awaited<ReturnType<ConversationBrain['turn']>>;
    const drafts = this.policy.drafts.open(conversation, charge.messageId);
    try {
      turn = await chatTurn(
        { ...this.policy, conversations: this.records.conversations },
        conversation,
        assistant,
        drafts.write,
      );
    } catch (e) {
      this.log.warn(
        { conversation_id: conversation.id, error: e instanceof Error ? e.message : String(e) },
        'a web chat reply failed: the language model did not answer',
      );
      await drafts.finish(true);
      await this.refund(conversation, charge, 'the language model did not answer');
      return err('processing_failed');
    }
    // The pieces go out before the stored reply, which then replaces them in every view.
    await drafts.finish(false);
    const functionCalls = functionCallsOf(
      turn.toolCalls.map((c) => ({ name: c.name, kind: c.kind, arguments: c.arguments, content: c.content })),
    );
    // The reply's commit is the request's outcome (a discarded reply answers as AI off). Ending the
    // chat and a refund come after it: a crash between leaves the inactivity schedule to end the chat.
    const stored = await this.records.uow.transaction(
      async () => {
        const locked = await this.records.conversations.lockById(conversation.id);
        if (locked === null || aiReplyFate(locked, askedAt) === 'discard') return null;
        return this.store(locked, {
          source: 'ai',
          body: turn.reply,
          functionCalls: functionCalls.length > 0 ? functionCalls : null,
          now: this.clock.now(),
        });
      },
      {
        concludes: (reply): Result<ChatReply, ReplyRefusal> =>
          ok(
            reply === null
              ? aiOff(conversation)
              : { conversation: reply, reply: turn.reply, functionCalls, aiDisabled: false },
          ),
      },
    );
    if (stored === null) {
      await drafts.finish(true);
      await this.refund(conversation, charge, 'a human took over before the reply');
      return ok(aiOff(conversation));
    }
    const ended = turn.end === null ? stored : ((await this.policy.ending.end(stored.id, { force: true })) ?? stored);
    return ok({ conversation: ended, reply: turn.reply, functionCalls, aiDisabled: false });
  }

  /** Gives a charge back when the reply it paid for never came. */
  private async refund(conversation: Conversation, charge: Charge, why: string): Promise<void> {
    if (charge.amount === 0) return;
    await this.records.ledger.post(conversation.userId, (balance) =>
      ok({
        ...refundPosting(balance, charge.amount),
        description: `Web chat message refunded: ${why}`,
        reference: { type: 'conversation_message', id: charge.messageId },
        requestId: null,
      }),
    );
  }

  private async store(conversation: Conversation, message: StoredMessage): Promise<Conversation> {
    return (await this.storeMessage(conversation, message)).conversation;
  }

  /** Inside the caller's transaction, with the conversation locked: the message, the conversation's counts, the live event. */
  private async storeMessage(
    conversation: Conversation,
    message: StoredMessage,
  ): Promise<{ conversation: Conversation; message: ConversationMessage }> {
    const stored = await this.records.chats.addMessage({ conversationId: conversation.id, ...message });
    const change = recordMessage(conversation, {
      source: message.source,
      type: 'text',
      at: message.now,
      assistantId: conversation.assistantId,
    });
    await this.records.conversations.save(change.next);
    if (change.events.some((e) => e.type === 'conversation_reopened'))
      await this.policy.schedule.afterMessage(change.next, change, false);
    await this.records.outbox.add([{ topic: WEB_CHAT_MESSAGE_TOPIC, payload: liveChatMessage(change.next, stored) }]);
    return { conversation: change.next, message: stored };
  }
}

function startedChat(
  conversation: Conversation | null,
  history: ChatHistoryItem[],
): Result<StartedChat, 'insufficient_balance'> {
  return conversation === null ? err('insufficient_balance') : ok({ conversation, history });
}

/** The answer to a message no AI reply follows: a human has taken over. */
function aiOff(conversation: Conversation): ChatReply {
  return { conversation, reply: null, functionCalls: [], aiDisabled: true };
}

/** What a user message was charged, and the message the ledger entry names. */
type Charge = { readonly amount: number; readonly messageId: number };

type StoredMessage = {
  readonly source: 'customer' | 'ai' | 'api';
  readonly body: string;
  readonly functionCalls: readonly FunctionCallRecord[] | null;
  readonly now: Date;
};
