import {
  ChatappPrices,
  decideFreeformSend,
  err,
  FreeformSendRefusal,
  mediaCaption,
  MediaType,
  ok,
  Result,
  SessionStatus,
  sessionStatus,
} from '@voiceplane/domain';
import { UserRepository } from '../ports';
import { Clock } from '../ports';
import { ConversationRepository } from '../conversations';
import { MediaFetcher, MediaFetchFailed } from './media-fetch';
import { OutboundSends, SendFailed, SentMessage } from './outbound-send';
import { SenderRepository } from './ports';
import { ChatappProvider, FreeformContent } from './provider-ports';

export interface FreeformSendRequest {
  readonly userId: number;
  readonly senderId: number;
  readonly recipientPhone: string;
  /** Null only with a media URL (validated by the caller). */
  readonly message: string | null;
  readonly mediaUrl: string | null;
  readonly filename: string | null;
  readonly source: 'api' | 'automation';
  readonly requestId?: string | null;
}

export type FreeformMessageRefusal = FreeformSendRefusal | MediaFetchFailed | SendFailed;

export interface FreeformSent extends SentMessage {
  /** The window as it is after the send (a freeform send never extends it). */
  readonly sessionStatus: SessionStatus;
}

/** Where the sender, the conversation and the paying user are read. */
export interface SendFreeformMessageRecords {
  readonly senders: SenderRepository;
  readonly conversations: ConversationRepository;
  readonly users: UserRepository;
}

/** How the message is checked, priced and sent. */
export interface SendFreeformMessageSending {
  readonly outbound: OutboundSends;
  readonly media: MediaFetcher;
  readonly provider: ChatappProvider;
  readonly prices: ChatappPrices;
}

/** `POST /api/user/chatapp/send-freeform`: the checks in order, the media fetch, then the send. */
export class SendFreeformMessage {
  private readonly senders: SenderRepository;
  private readonly conversations: ConversationRepository;
  private readonly users: UserRepository;
  private readonly outbound: OutboundSends;
  private readonly media: MediaFetcher;
  private readonly provider: ChatappProvider;
  private readonly prices: ChatappPrices;

  constructor(
    records: SendFreeformMessageRecords,
    sending: SendFreeformMessageSending,
    private readonly clock: Clock,
  ) {
    ({ senders: this.senders, conversations: this.conversations, users: this.users } = records);
    ({ outbound: this.outbound, media: this.media, provider: this.provider, prices: this.prices } = sending);
  }

  async execute(request: FreeformSendRequest): Promise<Result<FreeformSent, FreeformMessageRefusal>> {
    const sender = await this.senders.findOwned(request.userId, request.senderId);
    // With media, every check before the fetch runs first; without, the send's own
    // decision under its locks runs the same checks in the same order.
    if (sender === null || request.mediaUrl !== null) {
      const conversation = sender === null ? null : await this.conversations.find(sender.id, request.recipientPhone);
      const user = sender === null ? null : await this.users.findById(request.userId);
      const decided = decideFreeformSend(
        {
          sender,
          recipientPhone: request.recipientPhone,
          window: conversation?.window ?? null,
          balance: user?.balance ?? 0,
          prices: this.prices,
        },
        this.clock.now(),
      );
      if (!decided.ok) return decided;
    }

    let content: FreeformContent = { kind: 'text', text: request.message ?? '' };
    let media: { url: string; mediaType: MediaType; filename: string | null } | null = null;
    if (request.mediaUrl !== null) {
      const fetched = await this.media.check(request.mediaUrl);
      if (!fetched.ok) return fetched;
      media = { url: request.mediaUrl, mediaType: fetched.value, filename: request.filename };
      content = {
        kind: 'media',
        mediaType: fetched.value,
        url: request.mediaUrl,
        caption: mediaCaption(fetched.value, request.message),
        filename: request.filename,
      };
    }
    const sent = await this.outbound.send({
      sender: sender!,
      recipientPhone: request.recipientPhone,
      recipientName: null,
      source: request.source,
      type: media === null ? 'text' : 'media',
      body: content.kind === 'text' ? content.text : content.caption,
      media,
      templateId: null,
      createConversation: false,
      decide: ({ conversation: locked, balance, now }) => {
        const again = decideFreeformSend(
          {
            sender: sender!,
            recipientPhone: request.recipientPhone,
            window: locked?.window ?? null,
            balance,
            prices: this.prices,
          },
          now,
        );
        return again.ok ? ok(again.value.charge) : again;
      },
      deliver: (providerSender, reference) =>
        this.provider.sendFreeform(providerSender, request.recipientPhone, content, reference),
      description: 'Freeform message',
      requestId: request.requestId,
      outcome: (done) => this.outcome(done),
    });
    return this.outcome(sent);
  }

  private outcome(
    sent: Result<SentMessage, FreeformSendRefusal | SendFailed>,
  ): Result<FreeformSent, FreeformMessageRefusal> {
    if (!sent.ok) return err(sent.error);
    return ok({ ...sent.value, sessionStatus: sessionStatus(sent.value.conversation.window, this.clock.now()) });
  }
}
