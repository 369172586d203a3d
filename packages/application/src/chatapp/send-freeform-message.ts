import {
  ChatappPrices,
  decideFreeformSend,
  FreeformSendRefusal,
  mediaCaption,
  MediaType,
  ok,
  Result,
} from '@voiceplane/domain';
import { UserRepository } from '../ports';
import { Clock } from '../ports';
import { ConversationRepository } from '../conversations';
import { MediaFetcher, MediaFetchFailed } from './media-fetch';
import { OutboundSends, SendFailed, SentMessage } from './outbound-send';
import { SenderRepository } from './ports';
import { ChatappProvider, FreeformContent, ProviderAcceptance } from './provider-ports';

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

/** The sent message with the window as it is after the send (a freeform send never extends it). */
export type FreeformSent = SentMessage;

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
    const held = await this.outbound.reserve({
      sender: sender!,
      recipientPhone: request.recipientPhone,
      recipientName: null,
      source: request.source,
      type: media === null ? 'text' : 'media',
      body: content.kind === 'text' ? content.text : content.caption,
      media,
      templateId: null,
      createConversation: false,
      rule: { kind: 'freeform', prices: this.prices },
      description: 'Freeform message',
      requestId: request.requestId,
    });
    if (!held.ok) return held;
    const { providerSender, reservation } = held.value;
    let acceptance: ProviderAcceptance;
    try {
      acceptance = await this.provider.sendFreeform(
        providerSender,
        request.recipientPhone,
        content,
        reservation.messageSid,
      );
    } catch (e) {
      return this.outbound.release(held.value, e);
    }
    return ok(await this.outbound.settle(held.value, acceptance, true));
  }
}
