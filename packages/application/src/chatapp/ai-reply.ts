import {
  aiReplyFate, Assistant, ChatappPrices, checkSenderCanSend, Conversation, err, isWindowOpen, priceFreeformSend, roleOfSource, Sender,
  shouldGenerateAiReply,
} from '@voiceplane/domain';
import { AssistantRepository, CatalogRepository } from '../assistants/ports';
import { Clock } from '../ports/clock';
import { WorkLogger } from '../events/ports';
import { ConversationRepository } from '../conversations/ports';
import { assistantModelName } from './assistant-model';
import { OutboundSends } from './outbound-send';
import { ChatappMessageRepository } from './ports';
import { ChatappProvider, ConversationTurn, ReplyGenerator } from './provider-ports';

/** Turns of history the reply generator sees. */
const HISTORY_TURNS = 30;

export interface AiReply {
  readonly messageId: number;
  readonly body: string;
}

type Discarded = { readonly code: 'discarded' };

/**
 * The assistant's answer to a customer message (CONTRACT §8.9): generated outside any
 * transaction, then sent as a freeform message — unless AI was switched off (or off and on) since
 * the customer wrote, in which case it is discarded. Without balance it is stored as a failed
 * message and not sent.
 */
export class AiReplies {
  constructor(
    private readonly assistants: AssistantRepository,
    private readonly catalog: CatalogRepository,
    private readonly conversations: ConversationRepository,
    private readonly messages: ChatappMessageRepository,
    private readonly outbound: OutboundSends,
    private readonly generator: ReplyGenerator,
    private readonly provider: ChatappProvider,
    private readonly prices: ChatappPrices,
    private readonly clock: Clock,
    private readonly log: WorkLogger,
  ) {}

  /** The sender's assistant when it may answer this conversation now. */
  async replyingAssistant(sender: Sender, conversation: Conversation): Promise<Assistant | null> {
    if (sender.assistantId === null) return null;
    const assistant = await this.assistants.findOwned(sender.userId, sender.assistantId);
    return assistant !== null && shouldGenerateAiReply(conversation, assistant) ? assistant : null;
  }

  async reply(sender: Sender, conversation: Conversation, assistant: Assistant, customerMessageAt: Date): Promise<AiReply | null> {
    const history = await this.conversations.recentMessages(conversation.id, HISTORY_TURNS);
    const model = await assistantModelName(this.catalog, assistant);
    const body = await this.generator.generateReply({
      model, systemPrompt: assistant.systemPrompt, variables: assistant.variables, temperature: assistant.llmTemperature,
      history: history.map((m): ConversationTurn => ({ role: roleOfSource(m.source), content: m.body ?? '' })),
    });
    const sent = await this.outbound.send<Discarded | { code: 'INSUFFICIENT_BALANCE' } | { code: 'SENDER_OFFLINE' }>({
      sender, recipientPhone: conversation.customerPhone, recipientName: null, source: 'ai', type: 'text', body, media: null, templateId: null,
      createConversation: false,
      decide: ({ conversation: locked, balance, now }) => {
        if (locked === null || aiReplyFate(locked, customerMessageAt) === 'discard' || !isWindowOpen(locked.window, now)) return err({ code: 'discarded' });
        const online = checkSenderCanSend(sender.status);
        if (!online.ok) return err({ code: 'SENDER_OFFLINE' });
        return priceFreeformSend(balance, this.prices);
      },
      deliver: (providerSender) => this.provider.sendFreeform(providerSender, conversation.customerPhone, { kind: 'text', text: body }),
      description: 'AI reply',
    });
    if (sent.ok) return { messageId: sent.value.messageId, body };
    if (sent.error.code === 'INSUFFICIENT_BALANCE') {
      const messageId = await this.messages.recordUnsent({
        userId: sender.userId, conversationId: conversation.id, source: 'ai', body, errorCode: 'INSUFFICIENT_BALANCE', now: this.clock.now(),
      });
      return { messageId, body };
    }
    if (sent.error.code !== 'discarded') this.log.warn({ conversationId: conversation.id, refusal: sent.error.code }, 'an AI reply was not sent');
    return null;
  }
}

