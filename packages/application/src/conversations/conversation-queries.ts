import { Conversation, ConversationMessage, err, ok, Result } from '@voiceplane/domain';
import { TOOL_CALLS_LISTED_MAX, ToolInvocationLog, ToolInvocationRecord } from '../tools';
import { ConversationCursor, ConversationFilter, ConversationRef, ConversationRepository, CursorPage } from './ports';

/** A conversation with what its assistant used while answering (knowledge-base searches), oldest first. */
export interface ConversationDetail {
  readonly conversation: Conversation;
  readonly toolCalls: ToolInvocationRecord[];
}

/** Where a page of messages starts and how long it is. */
export interface MessagePageRequest {
  readonly cursor: ConversationCursor | null;
  readonly perPage: number;
}

/**
 * An account's conversations as the API reads them: another account's conversation is
 * `conversation_not_found`, and what a request carries past its reference is read only once the
 * conversation is known to be the caller's.
 */
export class ConversationQueries {
  constructor(
    private readonly conversations: ConversationRepository,
    private readonly toolCalls: ToolInvocationLog,
  ) {}

  /** Most recent message first. */
  list(
    userId: number,
    filter: ConversationFilter,
    cursor: ConversationCursor | null,
    perPage: number,
  ): Promise<CursorPage<Conversation>> {
    return this.conversations.list(userId, filter, cursor, perPage);
  }

  async get(userId: number, ref: ConversationRef): Promise<Result<ConversationDetail, 'conversation_not_found'>> {
    const conversation = await this.conversations.findOwned(userId, ref);
    if (conversation === null) return err('conversation_not_found');
    return ok({
      conversation,
      toolCalls: await this.toolCalls.listForConversation(conversation.id, TOOL_CALLS_LISTED_MAX),
    });
  }

  /** Newest first, with the request the page answers. */
  async messages(
    userId: number,
    ref: ConversationRef,
    pageOf: () => MessagePageRequest,
  ): Promise<
    Result<CursorPage<ConversationMessage> & { readonly request: MessagePageRequest }, 'conversation_not_found'>
  > {
    const conversation = await this.conversations.findOwned(userId, ref);
    if (conversation === null) return err('conversation_not_found');
    const request = pageOf();
    return ok({ ...(await this.conversations.messages(conversation.id, request.cursor, request.perPage)), request });
  }
}
