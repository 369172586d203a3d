import {
  ChatappMessage,
  Conversation,
  E164_PATTERN,
  err,
  ok,
  Result,
  SessionStatus,
  sessionStatus,
  WindowOpener,
  windowOpenedBy,
} from '@voiceplane/domain';
import { Clock } from '../ports';
import { ConversationRepository } from '../conversations';
import { ChatappMessageRepository, SenderRepository } from './ports';

/** Where the caller stands with a recipient on one of its senders; no conversation yet is a closed window. */
export interface ChatSession {
  readonly conversation: Conversation | null;
  readonly sessionStatus: SessionStatus;
  /** Null without a conversation. */
  readonly windowOpenedBy: WindowOpener | null;
}

/** What the chat-app API reads of sends: the 24-hour window with a recipient and a message by its sid, the caller's only. */
export class ChatappMessageQueries {
  constructor(
    private readonly senders: SenderRepository,
    private readonly conversations: ConversationRepository,
    private readonly messages: ChatappMessageRepository,
    private readonly clock: Clock,
  ) {}

  /** Another account's sender is not found before the number is looked at. */
  async session(
    userId: number,
    senderId: number,
    recipientPhone: string,
  ): Promise<Result<ChatSession, 'sender_not_found' | 'invalid_phone'>> {
    const sender = await this.senders.findOwned(userId, senderId);
    if (sender === null) return err('sender_not_found');
    if (!E164_PATTERN.test(recipientPhone)) return err('invalid_phone');
    const conversation = await this.conversations.find(sender.id, recipientPhone);
    const now = this.clock.now();
    if (conversation === null)
      return ok({ conversation: null, sessionStatus: sessionStatus(null, now), windowOpenedBy: null });
    return ok({
      conversation,
      sessionStatus: sessionStatus(conversation.window, now),
      windowOpenedBy: windowOpenedBy(conversation.window),
    });
  }

  async message(userId: number, messageSid: string): Promise<Result<ChatappMessage, 'message_not_found'>> {
    const message = await this.messages.findOwnedBySid(userId, messageSid);
    return message === null ? err('message_not_found') : ok(message);
  }
}
