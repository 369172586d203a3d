import {
  AiReplySkip,
  aiReplySkip,
  Assistant,
  ChatappPrices,
  Conversation,
  ok,
  Result,
  roleOfSource,
  RuntimeTool,
  Sender,
  ToolCallResult,
  transcriptText,
} from '@voiceplane/domain';
import { AssistantRepository } from '../assistants';
import { CallConfigurations } from '../calls';
import { ChatMessage } from '../conversation-policy';
import { ConversationBrain } from '../conversation-policy';
import { Clock } from '../ports';
import { WorkLogger } from '../events';
import { ConversationRepository } from '../conversations';
import { InvokeToolForConversation } from '../tools';
import { OutboundSends, SendFailed, SentMessage } from './outbound-send';
import { AiReplyRefusal } from './send-rules';
import { ChatappMessageRepository } from './ports';
import { ChatappProvider, ProviderAcceptance } from './provider-ports';

/** Turns of history the reply generator sees. */
const HISTORY_TURNS = 30;

/** The reply as it was stored: `queued`/`sent` when the chat app took it, `failed` (with why) when it was not sent. */
export interface AiReply {
  readonly messageId: number;
  readonly body: string;
  readonly status: 'queued' | 'sent' | 'failed';
  readonly errorCode: 'INSUFFICIENT_BALANCE' | 'SENDER_OFFLINE' | 'SEND_FAILED' | null;
}

/**
 * The stored message's `error_code`: rows keep the upper-case wire spelling clients already read
 * back from the messages list, whatever the refusal's code is called here.
 */
const STORED_ERROR_CODE = {
  insufficient_balance: 'INSUFFICIENT_BALANCE',
  sender_offline: 'SENDER_OFFLINE',
  send_failed: 'SEND_FAILED',
} as const satisfies Record<string, NonNullable<AiReply['errorCode']>>;

/** What became of a customer message's AI reply: the stored reply, or why there is none. */
export type AiReplyOutcome =
  | { readonly reply: AiReply; readonly skipped: null }
  | { readonly reply: null; readonly skipped: AiReplySkip };

/** What a reply reads: the sender's assistant, the conversation's history, and where the reply is stored. */
export interface AiReplyRecords {
  readonly assistants: AssistantRepository;
  readonly conversations: ConversationRepository;
  readonly messages: ChatappMessageRepository;
}

/** How a reply leaves: a freeform send through the chat app, priced like any other. */
export interface AiReplySending {
  readonly outbound: OutboundSends;
  readonly provider: ChatappProvider;
  readonly prices: ChatappPrices;
}

/** How an assistant answers: the conversation policy, the configuration it reads and the tools it may use. */
export interface ReplyPolicy {
  readonly brain: ConversationBrain;
  readonly configurations: CallConfigurations;
  readonly tools: InvokeToolForConversation;
  /** False with REPLY_GENERATOR=off: no conversation gets an AI reply, whatever its assistant. */
  readonly repliesOn: boolean;
}

const TOOL_NOT_FOUND = JSON.stringify({ error: 'tool_not_found' });

/** A chat-app conversation always has its customer's phone; web chats never reach the chat app. */
function chatappPhone(conversation: Conversation): string {
  if (conversation.customerPhone === null)
    throw new Error(`conversation ${conversation.id} is not a chat-app conversation`);
  return conversation.customerPhone;
}

/**
 * The assistant's answer to a customer message: the conversation policy's turn
 * (the assistant's instructions, its mid-call tools through the gateway; no built-ins: a chat has
 * no call to end or transfer), run outside any transaction, then sent as a freeform message — unless AI was switched off (or off and on) since
 * the customer wrote, in which case it is discarded. Without balance it is stored as a failed
 * message and not sent.
 */
export class AiReplies {
  constructor(
    private readonly records: AiReplyRecords,
    private readonly sending: AiReplySending,
    private readonly policy: ReplyPolicy,
    private readonly clock: Clock,
    private readonly log: WorkLogger,
  ) {}

  /** The AI reply to a customer message that was just stored, or why there is none. */
  async answer(sender: Sender, conversation: Conversation, customerMessageAt: Date): Promise<AiReplyOutcome> {
    // Replies switched off for the whole installation look like AI switched off on every conversation.
    if (!this.policy.repliesOn) return { reply: null, skipped: 'ai_disabled' };
    const assistant =
      sender.assistantId === null ? null : await this.records.assistants.findOwned(sender.userId, sender.assistantId);
    const skipped = aiReplySkip(conversation, assistant);
    if (skipped !== null || assistant === null) return { reply: null, skipped: skipped ?? 'no_assistant' };
    const reply = await this.reply(sender, conversation, assistant, customerMessageAt);
    // Only a reply discarded because AI was switched off meanwhile has nothing stored.
    return reply === null ? { reply: null, skipped: 'ai_disabled' } : { reply, skipped: null };
  }

  private async reply(
    sender: Sender,
    conversation: Conversation,
    assistant: Assistant,
    customerMessageAt: Date,
  ): Promise<AiReply | null> {
    const customerPhone = chatappPhone(conversation);
    const body = await this.generate(sender, conversation, assistant);
    const sent = await this.send(sender, customerPhone, body, customerMessageAt);
    if (sent.ok)
      return {
        messageId: sent.value.messageId,
        body,
        status: sent.value.chatapp.status === 'sent' ? 'sent' : 'queued',
        errorCode: null,
      };
    if (sent.error.code === 'discarded') return null;
    // Kept as a failed message so whoever reads the conversation sees what the assistant would have said.
    const errorCode = STORED_ERROR_CODE[sent.error.code];
    this.log.warn({ conversationId: conversation.id, refusal: errorCode }, 'an AI reply was not sent');
    const messageId = await this.records.messages.recordUnsent({
      userId: sender.userId,
      conversationId: conversation.id,
      source: 'ai',
      body,
      errorCode,
      now: this.clock.now(),
    });
    return { messageId, body, status: 'failed', errorCode };
  }

  /** Reserve, then the provider with no transaction open, then settle: see `OutboundSends`. */
  private async send(
    sender: Sender,
    customerPhone: string,
    body: string,
    customerMessageAt: Date,
  ): Promise<Result<SentMessage, AiReplyRefusal | SendFailed>> {
    const { outbound, provider, prices } = this.sending;
    const held = await outbound.reserve({
      sender,
      recipientPhone: customerPhone,
      recipientName: null,
      source: 'ai',
      type: 'text',
      body,
      media: null,
      templateId: null,
      createConversation: false,
      rule: { kind: 'ai_reply', prices, customerMessageAt },
      description: 'AI reply',
    });
    if (!held.ok) return held;
    const { providerSender, reservation } = held.value;
    let acceptance: ProviderAcceptance;
    try {
      acceptance = await provider.sendFreeform(
        providerSender,
        customerPhone,
        { kind: 'text', text: body },
        reservation.messageSid,
      );
    } catch (e) {
      return outbound.release(held.value, e);
    }
    // An AI reply concludes no request: it answers the customer's message after it was stored.
    return ok(await outbound.settle(held.value, acceptance, false));
  }

  /** The assistant's knowledge base is read by the brain: passages in the instructions (`prompt`) or a search function. */
  private async generate(sender: Sender, conversation: Conversation, assistant: Assistant): Promise<string> {
    const customerPhone = chatappPhone(conversation);
    const [history, config] = await Promise.all([
      this.records.conversations.recentMessages(conversation.id, HISTORY_TURNS),
      this.policy.configurations.forStart({
        direction: 'inbound',
        channel: 'chatapp',
        customerPhone: customerPhone,
        assistant,
        variables: {},
        line: { phoneNumberId: null, phoneNumber: sender.phoneNumber, sip: null },
      }),
    ]);
    const runTool = async (tool: RuntimeTool, params: Readonly<Record<string, unknown>>): Promise<ToolCallResult> => {
      const result = await this.policy.tools.execute({
        userId: sender.userId,
        toolId: tool.id,
        attachedToolIds: assistant.toolIds,
        params,
        conversationRowId: conversation.id,
        subject: {
          callId: null,
          assistantId: assistant.id,
          customerPhone: customerPhone,
          assistantPhone: sender.phoneNumber,
          direction: 'inbound',
          channel: 'chatapp',
          conversationId: conversation.uuid,
          timezone: assistant.timezone,
          variables: {},
          assistantVariables: assistant.variables,
        },
      });
      return result.ok
        ? result.value
        : {
            ok: false,
            statusCode: null,
            content: TOOL_NOT_FOUND,
            truncated: false,
            durationMs: 0,
            error: null,
            warnings: [],
          };
    };
    const turn = await this.policy.brain.turn({
      setup: config,
      history: history.map((m): ChatMessage => ({ role: roleOfSource(m.source), content: transcriptText(m) })),
      runTool,
      runBuiltIn: null,
      logContext: { conversation_id: conversation.id },
      userId: sender.userId,
      logOwner: { conversationId: conversation.id },
    });
    return turn.reply;
  }
}
