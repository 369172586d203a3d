import { Body, Controller, Get, Params, Post, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { ConversationQueries, ConversationRef, ToggleAi, TOKENS, WebChats } from '@voiceplane/application';
import { LISTED_CONVERSATION_TYPES } from '@voiceplane/domain';
import { presentToolInvocation } from '../calls/call-presenters';
import { parse, reply } from '../../pipeline/responses';
import { Answer, refuse, answerFor } from '../../pipeline/answers';
import { principalOf } from '../../pipeline/request-context';
import { Doc } from '../../openapi/route-doc';
import { ConversationListQuery, CursorQuery, HumanReplyBody } from './conversation-body';
import { CONVERSATION_ANSWERS, CONVERSATION_NOT_FOUND } from './conversation-answers';
import { presentConversation, presentConversationMessage } from './conversation-presenters';
import { decodeCursor, encodeCursor } from './conversation-cursor';

const FAMILY = 'conversation';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A `{uuid}` path segment: the UUID or the integer id; anything else is the 404. */
export function conversationRef(raw: string, notFound: Answer = CONVERSATION_NOT_FOUND): ConversationRef {
  if (/^[0-9]{1,15}$/.test(raw) && Number(raw) > 0) return { id: Number(raw) };
  if (UUID.test(raw)) return { uuid: raw.toLowerCase() };
  refuse(notFound);
}

/** Conversations. */
@Controller('/api/user/conversations')
export class ConversationController {
  constructor(
    @inject(TOKENS.ConversationQueries) private readonly conversations: ConversationQueries,
    @inject(TOKENS.ToggleAi) private readonly toggle: ToggleAi,
    @inject(TOKENS.WebChats) private readonly chats: WebChats,
  ) {}

  @Doc({ summary: 'List conversations, most recent message first', tag: 'Conversations', query: ConversationListQuery })
  @Get('/')
  async list(@Request() req: ExpressRequest) {
    const query = parse(ConversationListQuery, req.query ?? {}, FAMILY);
    const perPage = query.per_page ?? 15;
    const page = await this.conversations.list(
      principalOf(req).userId,
      {
        senderId: query.sender_id,
        status: query.status,
        aiEnabled: query.ai_enabled,
        customerPhone: query.customer_phone,
        type: query.type === undefined ? undefined : LISTED_CONVERSATION_TYPES[query.type],
        assistantId: query.assistant_id,
        senderPhone: query.whatsapp_sender_phone,
        externalIdentifier: query.external_identifier,
      },
      decodeCursor(query.cursor, true),
      perPage,
    );
    return reply(200, {
      status: true,
      data: page.items.map(presentConversation),
      next_cursor: encodeCursor(page.next),
      prev_cursor: encodeCursor(page.prev),
      per_page: perPage,
    });
  }

  @Doc({
    summary: 'Get a conversation by UUID or id, with the knowledge-base searches its AI replies used',
    tag: 'Conversations',
  })
  @Get('/:uuid')
  async get(@Request() req: ExpressRequest, @Params({ name: 'uuid' }) uuid: string) {
    const found = await this.conversations.get(principalOf(req).userId, conversationRef(uuid));
    if (!found.ok) refuse(CONVERSATION_ANSWERS, found.error);
    // What the assistant used while answering (knowledge-base searches), as a call lists its tool calls.
    const { conversation, toolCalls } = found.value;
    return reply(200, {
      status: true,
      data: { ...presentConversation(conversation), tool_calls: toolCalls.map(presentToolInvocation) },
    });
  }

  @Doc({ summary: "A conversation's messages, newest first", tag: 'Conversations', query: CursorQuery })
  @Get('/:uuid/messages')
  async messages(@Request() req: ExpressRequest, @Params({ name: 'uuid' }) uuid: string) {
    const pageOf = () => {
      const query = parse(CursorQuery, req.query ?? {}, FAMILY);
      return { cursor: decodeCursor(query.cursor, false), perPage: query.per_page ?? 15 };
    };
    const page = await this.conversations.messages(principalOf(req).userId, conversationRef(uuid), pageOf);
    if (!page.ok) refuse(CONVERSATION_ANSWERS, page.error);
    const { items, next, prev, request } = page.value;
    return reply(200, {
      status: true,
      data: items.map(presentConversationMessage),
      next_cursor: encodeCursor(next),
      prev_cursor: encodeCursor(prev),
      per_page: request.perPage,
    });
  }

  @Doc({
    summary: "A human's answer in a web chat (widget, test or external); the visitor sees it live",
    tag: 'Conversations',
    body: HumanReplyBody,
    success: 200,
  })
  @Post('/:uuid/messages')
  async humanReply(@Request() req: ExpressRequest, @Params({ name: 'uuid' }) uuid: string, @Body() raw: unknown) {
    const ref = conversationRef(uuid);
    const body = parse(HumanReplyBody, raw ?? {}, FAMILY);
    return reply(
      req,
      () => this.chats.humanReply(principalOf(req).userId, ref, body.message),
      (stored) =>
        stored.ok
          ? { status: 200, body: { status: true, data: presentConversationMessage(stored.value) } }
          : answerFor(CONVERSATION_ANSWERS, stored.error),
    );
  }

  @Doc({
    summary: 'Switch AI replies off (human takeover; API key only)',
    tag: 'Conversations',
    success: 200,
    auth: 'api_key',
  })
  @Post('/:uuid/disable-ai')
  disable(@Request() req: ExpressRequest, @Params({ name: 'uuid' }) uuid: string) {
    return this.setAi(req, uuid, false);
  }

  @Doc({ summary: 'Switch AI replies back on (API key only)', tag: 'Conversations', success: 200, auth: 'api_key' })
  @Post('/:uuid/enable-ai')
  enable(@Request() req: ExpressRequest, @Params({ name: 'uuid' }) uuid: string) {
    return this.setAi(req, uuid, true);
  }

  private async setAi(req: ExpressRequest, uuid: string, enabled: boolean) {
    return reply(
      req,
      () => this.toggle.set(principalOf(req).userId, conversationRef(uuid), enabled),
      (conversation) =>
        conversation === null
          ? CONVERSATION_NOT_FOUND
          : { status: 200, body: { status: true, ai_enabled: conversation.aiEnabled } },
    );
  }
}
