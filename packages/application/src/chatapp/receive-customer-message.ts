import { Conversation, MediaType, recordMessage, Sender } from '@voiceplane/domain';
import { Clock } from '../ports';
import { Ids } from '../ports';
import { Outbox } from '../ports';
import { UnitOfWork } from '../ports';
import { ConversationRepository } from '../conversations';
import { InactivitySchedule } from '../conversations';
import { AiReplies, AiReplyOutcome } from './ai-reply';
import { InboundMediaDownloads, MediaSource } from './inbound-media';
import { messageStored } from './message-events';
import { newMessageSid } from './outbound-send';
import { ChatappMessageRepository, NewChatappMessage } from './ports';

export interface CustomerMessage {
  readonly sender: Sender;
  readonly customerPhone: string;
  readonly customerName: string | null;
  readonly text: string | null;
  /** `source` is where voiceplane downloads its own copy from. */
  readonly media: {
    readonly source: MediaSource;
    readonly mediaType: MediaType;
    readonly caption: string | null;
  } | null;
  /** The provider's id of the message, when it has one. */
  readonly providerMessageId: string | null;
}

export interface CustomerMessageReceived {
  readonly conversation: Conversation;
  readonly messageId: number;
  readonly aiReply: AiReplyOutcome;
}

/** Where the conversation and the message are stored, and the transaction around both. */
export interface ReceiveCustomerMessageStores {
  readonly uow: UnitOfWork;
  readonly conversations: ConversationRepository;
  readonly messages: ChatappMessageRepository;
  /** Tells the account's event stream, in the same transaction. */
  readonly outbox: Outbox;
}

/** What a stored message sets going: the inactivity clock, the AI reply, the media download. */
export interface ReceiveCustomerMessageFollowUps {
  readonly inactivity: InactivitySchedule;
  readonly replies: AiReplies;
  readonly media: InboundMediaDownloads;
}

/**
 * An inbound customer message, from the provider ingress or the sandbox's inbound message: the
 * conversation is found or created (an ended one reopens), the message stored and the window
 * opened or extended in one transaction; then, when AI is on and the sender's assistant may
 * answer, the AI reply.
 */
export class ReceiveCustomerMessage {
  private readonly uow: UnitOfWork;
  private readonly conversations: ConversationRepository;
  private readonly messages: ChatappMessageRepository;
  private readonly outbox: Outbox;
  private readonly inactivity: InactivitySchedule;
  private readonly replies: AiReplies;
  private readonly media: InboundMediaDownloads;

  constructor(
    stores: ReceiveCustomerMessageStores,
    followUps: ReceiveCustomerMessageFollowUps,
    private readonly ids: Ids,
    private readonly clock: Clock,
  ) {
    ({ uow: this.uow, conversations: this.conversations, messages: this.messages, outbox: this.outbox } = stores);
    ({ inactivity: this.inactivity, replies: this.replies, media: this.media } = followUps);
  }

  async execute(m: CustomerMessage): Promise<CustomerMessageReceived> {
    const { sender } = m;
    const stored = await this.uow.transaction(async () => {
      const now = this.clock.now();
      const conversation = await this.conversations.lockOrCreate({
        userId: sender.userId,
        senderId: sender.id,
        customerPhone: m.customerPhone,
        uuid: this.ids.uuid(),
        now,
      });
      const change = recordMessage(conversation, {
        source: 'customer',
        type: m.media === null ? 'text' : 'media',
        at: now,
        assistantId: sender.assistantId,
        customerName: m.customerName,
      });
      await this.conversations.save(change.next);
      const message: NewChatappMessage = {
        userId: sender.userId,
        conversationId: conversation.id,
        senderId: sender.id,
        direction: 'inbound',
        source: 'customer',
        type: m.media === null ? 'text' : 'media',
        body: m.media === null ? m.text : m.media.caption,
        // The message's own URL is set once voiceplane holds its copy.
        media: m.media === null ? null : { url: null, mediaType: m.media.mediaType, filename: null },
        templateId: null,
        from: m.customerPhone,
        to: sender.phoneNumber,
        messageSid: newMessageSid(this.ids),
        providerMessageId: m.providerMessageId,
        status: 'received',
        cost: 0,
        fromAllowance: false,
        now,
      };
      const record = await this.messages.record(message);
      await this.outbox.add([messageStored(change.next, message, record.chatapp)]);
      await this.inactivity.afterMessage(change.next, change, conversation.messageCount === 0);
      const mediaId = m.media === null ? null : this.ids.token('med_', 22);
      if (mediaId !== null && m.media !== null) {
        await this.media.register({
          id: mediaId,
          userId: sender.userId,
          senderId: sender.id,
          messageId: record.messageId,
          source: m.media.source,
        });
      }
      return { conversation: change.next, messageId: record.messageId, at: now, mediaId };
    });
    // At once, before the reply: the provider's link expires. A failure is kept on the message and retried by the job.
    if (stored.mediaId !== null) await this.media.download(stored.mediaId).catch(() => false);
    const aiReply = await this.replies.answer(sender, stored.conversation, stored.at);
    return { conversation: stored.conversation, messageId: stored.messageId, aiReply };
  }
}
